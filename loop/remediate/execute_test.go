package remediate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/internal/looptest"
	"github.com/prloop/gh-prloop/loop/remediate"
)

// checkEnd asserts the round's end state: exactly one commit on top of the
// plan's head carrying both trailers, pushed once, one reply per thread,
// one round-1 request for the new head, and one update.
func checkEnd(w *looptest.World, res *remediate.Result, pushes0 int) {
	t := w.T
	t.Helper()
	head := w.Init.FinalHeadSHA
	remote := w.BareGit("rev-parse", "refs/heads/"+w.Plan.Doc.InitialSnapshot.HeadBranch)
	if remote != res.CommitSHA {
		t.Fatalf("remote head %s, result %s", remote, res.CommitSHA)
	}
	if n := w.BareGit("rev-list", "--count", head+".."+remote); n != "1" {
		t.Fatalf("%s commits on top of the plan's head, want 1", n)
	}
	msg := w.BareGit("log", "-1", "--format=%B", remote)
	if !strings.Contains(msg+"\n", "\nPrloop-Run: "+w.RunID+"\n") || !strings.Contains(msg+"\n", "\nPrloop-Round: 1\n") {
		t.Fatalf("commit message %q lacks the trailers", msg)
	}
	if got := w.Bed.GitServer.Pushes() - pushes0; got != 1 {
		t.Fatalf("%d pushes, want 1", got)
	}
	obs, _, err := w.Bed.Client.ObservePR(context.Background(), w.Repo, w.Init.PRNumber)
	if err != nil {
		t.Fatal(err)
	}
	replies := 0
	for _, th := range obs.Threads {
		n := 0
		for _, c := range th.Comments {
			if strings.Contains(c.Body, remediate.ReplyMarker(w.RunID, 1, th.ID)) {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("thread %s has %d replies with its marker, want 1", th.ID, n)
		}
		replies++
	}
	if replies == 0 || res.Replies != replies {
		t.Fatalf("%d threads, result says %d replies", replies, res.Replies)
	}
	marker := policy.RequestMarker(w.RunID, 1, remote)
	requests := 0
	for _, c := range obs.IssueComments {
		if strings.Contains(c.Body, marker) {
			requests++
			if c.ID != res.RequestCommentID || c.Body != policy.ReviewTrigger+"\n"+marker {
				t.Fatalf("request %d %q, result %d", c.ID, c.Body, res.RequestCommentID)
			}
		}
	}
	if requests != 1 {
		t.Fatalf("%d round-1 requests, want 1", requests)
	}
	if len(w.Updates) != 1 {
		t.Fatalf("%d distinct updates, want 1: %+v", len(w.Updates), w.Updates)
	}
	u := w.Updates[0]
	if u.Round != 1 || u.FinalHeadSHA != remote || u.RequestCommentID != res.RequestCommentID || !strings.HasPrefix(u.CompletedRequestKey, w.Init.CommentID+":") {
		t.Fatalf("update %+v", u)
	}
}

func TestRemediationWithAFixerEndToEnd(t *testing.T) {
	w := looptest.New(t)
	pushes0 := w.Bed.GitServer.Pushes()
	res, err := w.Execute(nil, w.FixerScript(w.Paths()...))
	if err != nil {
		t.Fatalf("execute: %v (events %+v)", err, w.Events)
	}
	checkEnd(w, res, pushes0)
	// Running it again does nothing more: every operation has its receipt.
	if _, err := w.Execute(nil, w.FixerScript(w.Paths()...)); err != nil {
		t.Fatal(err)
	}
	checkEnd(w, res, pushes0)
}
