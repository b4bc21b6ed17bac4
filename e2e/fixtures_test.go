package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
)

// shape is the size of a seeded pull request.
type shape struct {
	threads  int   // review threads
	comments int   // review comments in those threads, roots included
	long     []int // sizes of threads that need their own pages (>100)
	issue    int   // conversation comments, the review request included
}

const (
	bigOwner  = "acme"
	bigName   = "monorepo"
	bigNumber = 7
	bigBase   = "1111111111111111111111111111111111111111"
	bigHead   = "2222222222222222222222222222222222222222"
)

var bigRepo = ghclient.Repo{Owner: bigOwner, Name: bigName}

// seedShape adds acme/monorepo#7 with exactly sh's threads and comments,
// its history ending two days before now (the simulator's clock).
// Thread roots are grouped 100 to a review and replies 200 to a review, as
// a batch of pending comments would be, so that reviews stay few and the
// thread pages decide the number of round trips. Every item is stamped
// with a distinct time so that ordering is checkable.
func seedShape(tb testing.TB, sim *ghsim.Server, now time.Time, sh shape) *ghsim.PR {
	tb.Helper()
	now = now.UTC().Truncate(time.Second).Add(-48 * time.Hour)
	repo := sim.AddRepo(ghsim.RepoSpec{Owner: ghsim.Account{Login: bigOwner, Type: ghsim.TypeOrganization}, Name: bigName})
	repo.AddCommit(ghsim.Commit{SHA: bigBase, Message: "base", Date: now})
	repo.AddCommit(ghsim.Commit{SHA: bigHead, Message: "head", Parents: []string{bigBase}, Date: now})
	repo.SetBranch("main", bigBase)
	repo.SetBranch("topic", bigHead)
	pr, err := repo.AddPR(ghsim.PullRequest{Number: bigNumber, Title: "A very large change", Head: "topic", Base: "main", CreatedAt: now})
	if err != nil {
		tb.Fatal(err)
	}
	reviewer := sim.AddAccount(ghsim.Account{Login: "reviewer", Type: ghsim.TypeUser})
	viewer := sim.Viewer()
	at := now
	tick := func() time.Time { at = at.Add(time.Second); return at }

	if sh.issue > 0 {
		pr.AddComment(ghsim.Comment{Author: viewer, Body: "@codex review", CreatedAt: tick()})
	}
	for i := 1; i < sh.issue; i++ {
		pr.AddComment(ghsim.Comment{Author: reviewer, Body: fmt.Sprintf("conversation %d", i), CreatedAt: tick()})
	}

	sizes := make([]int, sh.threads)
	left := sh.comments
	for i := range sizes {
		sizes[i] = 1
		left--
	}
	// Long threads are spread over the thread pages so their extra pages
	// travel with different follow-ups.
	for k, n := range sh.long {
		i := (k*sh.threads/len(sh.long) + sh.threads/(2*len(sh.long))) % sh.threads
		sizes[i] = n
		left -= n - 1
	}
	for i := 0; left > 0; i = (i + 1) % len(sizes) {
		if sizes[i] < 100 {
			sizes[i]++
			left--
		}
	}
	if left < 0 {
		tb.Fatalf("shape %+v: long threads exceed the comment count", sh)
	}

	var rootReview, replyReview ghsim.Review
	roots, replies := 0, 0
	for i, n := range sizes {
		if roots%100 == 0 {
			rootReview = pr.AddReview(ghsim.Review{Author: reviewer, State: "COMMENTED", CommitID: bigHead, SubmittedAt: tick()})
		}
		roots++
		th, err := pr.AddThread(ghsim.ThreadSpec{Root: ghsim.ReviewComment{
			ReviewID: rootReview.ID, Author: reviewer, Path: fmt.Sprintf("pkg/file%04d.go", i), Line: 10 + i%50,
			Body: fmt.Sprintf("finding %d", i), CreatedAt: tick(),
		}})
		if err != nil {
			tb.Fatal(err)
		}
		for j := 1; j < n; j++ {
			if replies%200 == 0 {
				replyReview = pr.AddReview(ghsim.Review{Author: viewer, State: "COMMENTED", CommitID: bigHead, SubmittedAt: tick()})
			}
			replies++
			if _, err := pr.Reply(th.NodeID, ghsim.ReviewComment{ReviewID: replyReview.ID, Author: viewer, Body: fmt.Sprintf("reply %d.%d", i, j), CreatedAt: tick()}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return pr
}
