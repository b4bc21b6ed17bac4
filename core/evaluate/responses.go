package evaluate

import (
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

// sourceRank orders response sources as the seed sorts them.
func sourceRank(source string) int {
	switch source {
	case policy.SourceIssueComment:
		return 0
	case policy.SourceReview:
		return 1
	case policy.SourceReviewComment:
		return 2
	}
	return 3
}

// compareDecimal compares two positive decimal strings without leading zeros
// (the decoder guarantees the form) as numbers, at any size.
func compareDecimal(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareResponses is the seed's order: source, then numeric id.
func compareResponses(a, b schema.Response) int {
	if ra, rb := sourceRank(a.Source), sourceRank(b.Source); ra != rb {
		if ra < rb {
			return -1
		}
		return 1
	}
	return compareDecimal(a.ID, b.ID)
}

// qualifies reports whether r answers the pending request.
func qualifies(s schema.State, r schema.Response) bool {
	return s.RequestCommentID != nil && r.TriggerRequestCommentID != nil &&
		*r.TriggerRequestCommentID == *s.RequestCommentID
}

// verdict summarizes what the qualifying responses say.
type verdict struct {
	qualifying int
	// findings: a qualifying review or review comment that is not a
	// zero-findings signal, or an issue comment about the requested head that
	// is not one (the bot's findings issue comment; classify gives a notice
	// or any other comment a null commit_sha).
	findings bool
	zero     bool // a qualifying zero-findings signal for the requested head
}

func readVerdict(s schema.State) verdict {
	var v verdict
	for _, r := range s.Responses {
		if !qualifies(s, r) {
			continue
		}
		v.qualifying++
		switch {
		case r.ZeroFindingsSignal:
			if r.CommitSHA == nil || (s.RequestHeadSHA != nil && *r.CommitSHA == *s.RequestHeadSHA) {
				v.zero = true
			}
		case r.Source == policy.SourceReview || r.Source == policy.SourceReviewComment:
			v.findings = true
		case r.Source == policy.SourceIssueComment && r.CommitSHA != nil && s.RequestHeadSHA != nil && *r.CommitSHA == *s.RequestHeadSHA:
			v.findings = true
		}
	}
	return v
}

// requestKey is the pending request's key, "" without a request.
func requestKey(s schema.State) string {
	if s.RequestCommentID == nil || s.RequestHeadSHA == nil {
		return ""
	}
	return policy.RequestKey(*s.RequestCommentID, *s.RequestHeadSHA)
}

// requestCompleted reports whether the pending request's round is already
// finished, which for a finalization plan marks the post-mutation snapshot.
func requestCompleted(s schema.State) bool {
	key := requestKey(s)
	if key == "" {
		return false
	}
	for _, k := range s.CompletedRequestKeys {
		if k == key {
			return true
		}
	}
	return false
}
