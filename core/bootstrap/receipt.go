package bootstrap

import (
	"slices"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
)

// checkReceipt enforces the seed's post-write receipt rules against the
// approved snapshot and manifest and the fresh state.
func (b *bind) checkReceipt() {
	r := b.doc.BootstrapSnapshot.PostWriteReceipt
	s := b.doc.InitialDocument.InitialSnapshot
	st := b.doc.BootstrapSnapshot.State
	ok := b.d.CleanAt
	rp := func(k string) string { return pReceipt + "/" + k }
	sp := func(k string) string { return pSnapshot + "/" + k }

	if ok(rp("base_sha"), sp("base_sha")) && r.BaseSHA != s.BaseSHA {
		b.add(rp("base_sha"), problems.Mismatch, "is %s, the approved base_sha is %s", r.BaseSHA, s.BaseSHA)
	}
	if ok(rp("pushed_diff_sha256"), sp("diff_sha256")) && r.PushedDiffSHA256 != s.DiffSHA256 {
		b.add(rp("pushed_diff_sha256"), problems.Mismatch, "is %s, the approved diff_sha256 is %s", r.PushedDiffSHA256, s.DiffSHA256)
	}
	if ok(rp("paths"), sp("paths")) && !slices.Equal(r.Paths, s.Paths) {
		b.add(rp("paths"), problems.Mismatch, "must be exactly the approved paths, in order")
	}
	if ok(rp("initial_head_sha"), sp("current_head_sha")) && r.InitialHeadSHA != s.CurrentHeadSHA {
		b.add(rp("initial_head_sha"), problems.Mismatch, "is %s, the approved current_head_sha is %s", r.InitialHeadSHA, s.CurrentHeadSHA)
	}
	if ok(rp("head_descends_from_initial")) && !r.HeadDescendsFromInitial {
		b.add(rp("head_descends_from_initial"), problems.InvalidValue, "the final head must descend from the initial head")
	}
	if ok(rp("final_head_sha"), rp("initial_head_sha"), sp("commit_required")) {
		switch {
		case s.CommitRequired && r.FinalHeadSHA == r.InitialHeadSHA:
			b.add(rp("final_head_sha"), problems.InvalidValue, "commit_required: the final head must be a new commit, not the initial head %s", r.InitialHeadSHA)
		case !s.CommitRequired && r.FinalHeadSHA != r.InitialHeadSHA:
			b.add(rp("final_head_sha"), problems.Mismatch, "no commit was approved: the final head must be the initial head %s", r.InitialHeadSHA)
		}
	}
	if ok(rp("final_head_sha")) {
		final := r.FinalHeadSHA
		b.sameHead(rp("remote_head_sha"), r.RemoteHeadSHA, final)
		b.sameHead(rp("pr_head_sha"), r.PRHeadSHA, final)
		b.sameHead(pState+"/current_head_sha", st.CurrentHeadSHA, final)
		b.sameHead(pState+"/pr/head_sha", st.PR.HeadSHA, final)
		if st.RequestHeadSHA != nil {
			b.sameHead(pState+"/request_head_sha", *st.RequestHeadSHA, final)
		}
		if ok(rp("review_request_body"), pManifest+"/review_request_body_template") {
			want := RenderReviewBody(b.doc.InitialDocument.InitialManifest.ReviewRequestBodyTemplate, final)
			if r.ReviewRequestBody != want {
				b.add(rp("review_request_body"), problems.Mismatch,
					"must be the approved template with only {{FINAL_HEAD_SHA}} replaced by %s", final)
			}
		}
	}
	if ok(rp("worktree_clean")) && !r.WorktreeClean {
		b.add(rp("worktree_clean"), problems.InvalidValue, "the worktree must be clean after the write")
	}
	if ok(rp("review_request_body"), rp("review_request_body_sha256")) {
		if h := canon.Hash([]byte(r.ReviewRequestBody)); h != r.ReviewRequestBodySHA256 {
			b.add(rp("review_request_body_sha256"), problems.HashMismatch,
				"is %s but the rendered body's UTF-8 bytes hash to %s", r.ReviewRequestBodySHA256, h)
		}
	}
}

func (b *bind) sameHead(path, got, final string) {
	if b.d.CleanAt(path) && got != final {
		b.add(path, problems.Mismatch, "is %s, the verified final head is %s", got, final)
	}
}
