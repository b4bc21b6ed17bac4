package ghsim

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestSeedDemo(t *testing.T) {
	clock := NewManualClock(testStart)
	s := New(Options{Clock: clock.Now})
	s.Start()
	defer s.Close()
	pr := SeedDemo(s)
	if pr.Number() != DemoPR || pr.Data().HeadSHA != DemoHeadSHA || pr.Data().BaseSHA != DemoBaseSHA {
		t.Fatalf("demo PR = %+v", pr.Data())
	}
	f := &fixture{t: t, s: s, clock: clock}
	doc := f.graphql(observeQuery, map[string]any{"owner": "octo-org", "name": "widgets", "number": DemoPR})
	if errs, ok := doc["errors"]; ok {
		t.Fatalf("errors: %v", errs)
	}
	p := dig(t, doc, "data", "repository", "pullRequest")
	comments := dig(t, p, "comments", "nodes").([]any)
	if len(comments) != 2 || dig(t, comments[0], "body") != DemoRequestBody ||
		!strings.Contains(dig(t, comments[1], "body").(string), "✅ **Completed**") {
		t.Fatalf("comments = %v", comments)
	}
	threads := dig(t, p, "reviewThreads", "nodes").([]any)
	var codex, human int
	for _, th := range threads {
		root := dig(t, th, "comments", "nodes", 0)
		if dig(t, root, "author", "login") == CodexAppSlug {
			codex++
			if dig(t, root, "originalCommit", "oid") != DemoHeadSHA {
				t.Errorf("codex thread not on the head: %v", root)
			}
		} else {
			human++
			if dig(t, th, "comments", "totalCount") != 2.0 {
				t.Errorf("human thread = %v", th)
			}
		}
	}
	if codex != 3 || human != 1 {
		t.Fatalf("codex threads %d, human threads %d", codex, human)
	}
	review := dig(t, p, "reviews", "nodes", 0)
	if !strings.Contains(dig(t, review, "body").(string), "**Reviewed commit:** `"+DemoHeadSHA[:10]+"`") {
		t.Errorf("review = %v", review)
	}
	ctx := dig(t, p, "commits", "nodes", 0, "commit", "statusCheckRollup")
	if dig(t, ctx, "state") != "PENDING" || len(dig(t, ctx, "contexts", "nodes").([]any)) != 2 {
		t.Errorf("checks = %v", ctx)
	}
	// The next request is answered with zero findings.
	f.do("POST", "/repos/octo-org/widgets/issues/42/comments", map[string]any{"body": "@codex review"})
	s.Settle()
	last := pr.Comments()[len(pr.Comments())-1]
	if !strings.HasPrefix(last.Body, ZeroFindingsPrefix) || last.Author.ID != CodexBotID {
		t.Errorf("second round = %+v", last)
	}
}

func TestServerWorksInProcessWithoutListener(t *testing.T) {
	s := New(Options{})
	req := httptest.NewRequest("GET", "/api/v3/user", nil)
	req.Header.Set("Authorization", "token x")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"login":"monalisa"`) {
		t.Fatalf("in-process: %d %s", rec.Code, rec.Body)
	}
	if s.URL() != "" {
		t.Error("URL before Start")
	}
}

func TestCloseReleasesDelayedRequests(t *testing.T) {
	s := New(Options{})
	s.Start()
	s.InjectFault(Fault{Kind: FaultDelay, Delay: time.Hour})
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest("GET", s.URL()+"/user", nil)
		req.Header.Set("Authorization", "token x")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	for s.Stats().Faults == 0 {
		time.Sleep(time.Millisecond)
	}
	s.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close left a delayed request hanging")
	}
}
