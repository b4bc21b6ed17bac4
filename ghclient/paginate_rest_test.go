package ghclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// reactionsPages serves total reactions 100 per page with Link headers
// whose host is linkHost (GitHub's own, or anything else).
func reactionsPages(total int, linkHost string, failPage int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page == 0 {
			page = 1
		}
		if page == failPage {
			writeJSON(w, 500, `{}`)
			return
		}
		if r.URL.Query().Get("per_page") != "100" {
			writeJSON(w, 400, `{"message":"per_page missing"}`)
			return
		}
		start, end := (page-1)*100, min(page*100, total)
		var items []string
		for i := start; i < end; i++ {
			items = append(items, fmt.Sprintf(`{"id":%d,"content":"eyes","created_at":"2026-01-01T00:00:00Z","user":{"login":"u%d","id":%d,"type":"User"}}`, i+1, i, i+10))
		}
		if end < total {
			w.Header().Set("Link", fmt.Sprintf(`<https://%s%s?per_page=100&page=%d>; rel="next", <https://%s%s?per_page=100&page=%d>; rel="last"`,
				linkHost, r.URL.Path, page+1, linkHost, r.URL.Path, (total+99)/100))
		}
		writeJSON(w, 200, "["+strings.Join(items, ",")+"]")
	}
}

func TestRESTPaginationReadsEveryPage(t *testing.T) {
	f := newFakeGitHub(t)
	f.rest["/repos/octo/hello/issues/comments/5/reactions"] = reactionsPages(250, "api.github.com", 0)
	c, _ := newTestClient(t, f, nil)
	rs, cost, err := c.ReactionsForComment(context.Background(), octoHello, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 250 || rs[249].User.ID != 259 || cost.Requests != 3 {
		t.Fatalf("%d reactions, cost %+v", len(rs), cost)
	}
}

func TestRESTPaginationNeverFollowsLinksOffTheAPI(t *testing.T) {
	// A next link naming another host is requested from our own API host:
	// only its path and query are used, so the token cannot leak there.
	f := newFakeGitHub(t)
	f.rest["/repos/octo/hello/issues/comments/5/reactions"] = reactionsPages(150, "evil.example", 0)
	var hosts []string
	inner := f.ServeHTTP
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hosts = append(hosts, r.Host); inner(w, r) })
	c, _ := newTestClient(t, h, nil)
	rs, _, err := c.ReactionsForComment(context.Background(), octoHello, 5)
	if err != nil || len(rs) != 150 {
		t.Fatalf("%d %v", len(rs), err)
	}
	if strings.Join(hosts, ",") != "api.github.com,api.github.com" {
		t.Fatalf("hosts %v", hosts)
	}
}

func TestRESTPaginationFailureMidwayIsAnError(t *testing.T) {
	f := newFakeGitHub(t)
	f.rest["/repos/octo/hello/issues/comments/5/reactions"] = reactionsPages(250, "api.github.com", 2)
	c, _ := newTestClient(t, f, func(o *Options) { o.MaxAttempts = 2 })
	rs, _, err := c.ReactionsForComment(context.Background(), octoHello, 5)
	var g *GiveUpError
	if rs != nil || !errors.As(err, &g) {
		t.Fatalf("got %d reactions, err %v", len(rs), err)
	}
}

func TestRESTPaginationLoopIsAnError(t *testing.T) {
	f := newFakeGitHub(t)
	f.rest["/repos/octo/hello/rules/branches/main"] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<https://api.github.com/repos/octo/hello/rules/branches/main?per_page=100>; rel="next"`)
		writeJSON(w, 200, `[]`)
	}
	c, _ := newTestClient(t, f, nil)
	if _, _, err := c.BranchRules(context.Background(), octoHello, "main"); !errors.Is(err, ErrIncomplete) {
		t.Fatalf("err %v", err)
	}
}

func TestCheckRunsCountMismatchIsAnError(t *testing.T) {
	f := newFakeGitHub(t)
	f.rest["/repos/octo/hello/commits/abc/check-runs"] = func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"total_count":2,"check_runs":[{"name":"a","status":"completed","conclusion":"success"}]}`)
	}
	c, _ := newTestClient(t, f, nil)
	if runs, _, err := c.CheckRuns(context.Background(), octoHello, "abc"); runs != nil || !errors.Is(err, ErrIncomplete) {
		t.Fatalf("runs %v err %v", runs, err)
	}
}

func TestEnterpriseHostUsesAPIV3Prefix(t *testing.T) {
	var paths []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.Host+r.URL.Path)
		if r.URL.Query().Get("page") == "" {
			w.Header().Set("Link", `<https://ghe.example.com/api/v3/repos/octo/hello/rules/branches/release%2Fv1?per_page=100&page=2>; rel="next"`)
		}
		writeJSON(w, 200, `[{"type":"deletion","ruleset_source_type":"Repository","ruleset_source":"octo/hello","ruleset_id":1}]`)
	})
	c, _ := newTestClient(t, h, func(o *Options) { o.Host = "ghe.example.com" })
	rules, _, err := c.BranchRules(context.Background(), octoHello, "release/v1")
	if err != nil || len(rules) != 2 {
		t.Fatalf("%v %v", rules, err)
	}
	want := "ghe.example.com/api/v3/repos/octo/hello/rules/branches/release/v1"
	if len(paths) != 2 || paths[0] != want || paths[1] != "ghe.example.com/api/v3/repos/octo/hello/rules/branches/release/v1" {
		t.Fatalf("paths %v", paths)
	}
}
