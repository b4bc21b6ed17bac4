package classify

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

// responseSet is what collectResponses finds.
type responseSet struct {
	qualifying []schema.Response
	older      []schema.Response
	notices    []Notice
}

// candidate is one trusted item before the qualification decision.
type candidate struct {
	source    string
	id        int64
	body      string
	created   string // GitHub's timestamp (review: submitted_at)
	edited    string // last_edited_at, "" when never edited
	commitSHA *string
	qualifies bool
	zero      bool
	notice    string
	quote     string // what a notice quotes when not the whole body
}

func collectResponses(obs *observe.PR, req requestClock) responseSet {
	var cands []candidate
	var summaries []observe.IssueComment
	for _, c := range obs.IssueComments {
		if !Trusted(c.Author) || c.ID <= 0 {
			continue
		}
		if isSummary(c.Body) {
			summaries = append(summaries, c)
			continue
		}
		cands = append(cands, issueCommentCandidate(c, obs.Repository, req))
	}
	for _, r := range obs.Reviews {
		// A pending review is a draft nobody else can see; it has no
		// submission time and is not an answer.
		if !Trusted(r.Author) || r.State == "PENDING" || r.ID <= 0 {
			continue
		}
		cands = append(cands, reviewCandidate(r, req))
	}
	for _, rc := range obs.ReviewComments {
		if !Trusted(rc.Author) || rc.ID <= 0 {
			continue
		}
		cands = append(cands, reviewCommentCandidate(rc, req))
	}
	for _, c := range summaries {
		if cand, ok := summaryCandidate(c, obs, req); ok {
			cands = append(cands, cand)
		}
	}

	set := responseSet{qualifying: []schema.Response{}, older: []schema.Response{}, notices: []Notice{}}
	for _, c := range cands {
		resp, ok := c.normalize(req)
		if !ok {
			continue
		}
		if !c.qualifies {
			set.older = append(set.older, resp)
			continue
		}
		set.qualifying = append(set.qualifying, resp)
		if c.notice != "" {
			text := c.quote
			if text == "" {
				text = c.body
			}
			set.notices = append(set.notices, Notice{Source: c.source, ID: resp.ID, Kind: c.notice, Text: clip(text, maxNoticeText)})
		}
	}
	sortResponses(set.qualifying)
	sortResponses(set.older)
	sort.SliceStable(set.notices, func(i, j int) bool {
		return lessSourceID(set.notices[i].Source, set.notices[i].ID, set.notices[j].Source, set.notices[j].ID)
	})
	return set
}

// issueCommentCandidate: a conversation comment has no commit of its own; the
// only commit it names is its "Reviewed commit" line, or for a findings
// comment the commit its links point at. A comment naming another commit is
// about that commit and does not answer this request (PROTOCOL §5: "A
// zero-findings comment for another commit does not qualify"). Its commit_sha
// is the full request head only when it is a verdict about that head (the
// explicit zero-findings sentence, or findings): the evaluator reads a
// non-zero issue comment about the head as findings, so a notice or an
// unknown comment keeps null. A prefix alone is not a 40-hex value and is
// never guessed into one.
func issueCommentCandidate(c observe.IssueComment, repository string, req requestClock) candidate {
	cand := candidate{source: policy.SourceIssueComment, id: c.ID, body: c.Body, created: c.CreatedAt, edited: c.LastEditedAt}
	prefix, named := reviewedCommit(c.Body)
	fc, isFindings := readFindingsComment(c.Body, repository)
	if isFindings {
		prefix, named = fc.Commit, true
	}
	matches := named && req.valid && prefixOf(prefix, req.head)
	cand.qualifies = req.after(c.CreatedAt) && (!named || matches)
	cand.zero = cand.qualifies && matches && opensWithZeroFindings(c.Body)
	if matches && (cand.zero || isFindings) {
		head := req.head
		cand.commitSHA = &head
	}
	if cand.qualifies && !cand.zero && !isFindings {
		cand.notice = noticeKind(c.Body)
	}
	return cand
}

// summaryCandidate: the summary comment is progress, not an answer, except in
// two cases (PROTOCOL §5), both judged by its last edit, since the bot edits
// one comment in place for every review:
//   - its Code Review row is ⚠️ Failed for the requested head: a notice;
//   - zero_findings_signal rule (b): the row is ✅ Completed for the head,
//     the bot reacted 👍 on the request comment or the PR at or after the
//     request, and no trusted findings exist for that head. Codex posts no
//     comment at all for such a clean round.
//
// Either way it is normalized as an issue-comment whose content_version_at
// is the edit that said so.
func summaryCandidate(c observe.IssueComment, obs *observe.PR, req requestClock) (candidate, bool) {
	if !req.valid {
		return candidate{}, false
	}
	version := c.LastEditedAt
	if version == "" {
		version = c.CreatedAt
	}
	if !req.after(version) {
		return candidate{}, false
	}
	cand := candidate{source: policy.SourceIssueComment, id: c.ID, body: c.Body, created: c.CreatedAt, edited: c.LastEditedAt, qualifies: true}
	switch summaryState(c.Body, req.head, RowCodeReview) {
	case SummaryFailed:
		cand.notice = NoticeFailed
		cand.quote = summaryRowLine(c.Body, req.head, RowCodeReview, SummaryFailed)
		return cand, true
	case SummaryCompleted:
		if !thumbsUpSince(obs, req) || findingsExist(obs, req.head) {
			return candidate{}, false
		}
		head := req.head
		cand.commitSHA, cand.zero = &head, true
		return cand, true
	}
	return candidate{}, false
}

// thumbsUpSince: the bot's 👍 on the request comment or on the PR, given at
// or after the request. An older 👍 on the PR belongs to an earlier review.
func thumbsUpSince(obs *observe.PR, req requestClock) bool {
	for _, r := range obs.Reactions {
		if r.Content != "+1" || !trustedReactor(r.User) || !req.after(r.CreatedAt) {
			continue
		}
		if r.Subject == "pr" || r.Subject == strconv.FormatInt(req.id, 10) {
			return true
		}
	}
	return false
}

// findingsExist: any trusted finding about head, whenever it was posted: a
// review that is not the zero-findings sentence, an inline comment, or a
// findings issue comment. A 👍 next to findings is not a clean round.
func findingsExist(obs *observe.PR, head string) bool {
	for _, r := range obs.Reviews {
		if Trusted(r.Author) && r.State != "PENDING" && lowerHex(r.CommitID) == head && (r.CommentCount > 0 || !opensWithZeroFindings(r.Body)) && noticeKind(r.Body) == "" {
			return true
		}
	}
	for _, rc := range obs.ReviewComments {
		if Trusted(rc.Author) && lowerHex(rc.OriginalCommitID) == head {
			return true
		}
	}
	for _, c := range obs.IssueComments {
		if !Trusted(c.Author) {
			continue
		}
		if fc, ok := readFindingsComment(c.Body, obs.Repository); ok && prefixOf(fc.Commit, head) {
			return true
		}
	}
	return false
}

func reviewCandidate(r observe.Review, req requestClock) candidate {
	commit := lowerHex(r.CommitID)
	cand := candidate{source: policy.SourceReview, id: r.ID, body: r.Body, created: r.SubmittedAt, edited: r.LastEditedAt, commitSHA: optSHA(commit)}
	cand.qualifies = req.after(r.SubmittedAt) && commit == req.head
	if cand.qualifies {
		prefix, named := reviewedCommit(r.Body)
		// A review carrying inline comments has findings whatever its body says.
		cand.zero = r.CommentCount == 0 && named && prefixOf(prefix, req.head) && opensWithZeroFindings(r.Body)
		cand.notice = noticeKind(r.Body)
	}
	return cand
}

// reviewCommentCandidate uses original_commit_id: GitHub re-anchors commit_id
// to the new head after a push, so only the original tells which commit the
// bot actually reviewed.
func reviewCommentCandidate(rc observe.ReviewComment, req requestClock) candidate {
	commit := lowerHex(rc.OriginalCommitID)
	return candidate{
		source: policy.SourceReviewComment, id: rc.ID, body: rc.Body,
		created: rc.CreatedAt, edited: rc.LastEditedAt, commitSHA: optSHA(commit),
		qualifies: req.after(rc.CreatedAt) && commit == req.head,
	}
}

// normalize builds the seed's response object. ok is false when a timestamp
// cannot be read: such an item can be neither placed nor dated, and a
// response with an invented time would be a guess.
func (c candidate) normalize(req requestClock) (schema.Response, bool) {
	created, ok := productTime(c.created)
	if !ok {
		return schema.Response{}, false
	}
	version := created
	if c.edited != "" {
		if version, ok = productTime(c.edited); !ok {
			return schema.Response{}, false
		}
	}
	var trigger *int64
	if c.qualifies {
		id := req.id
		trigger = &id
	}
	sum := sha256.Sum256([]byte(c.body))
	return schema.Response{
		BodySHA256:              hex.EncodeToString(sum[:]),
		BotID:                   policy.CodexBotID,
		BotType:                 policy.CodexBotType,
		CommitSHA:               c.commitSHA,
		ContentVersionAt:        version,
		CreatedAt:               created,
		ID:                      strconv.FormatInt(c.id, 10),
		Source:                  c.source,
		TriggerRequestCommentID: trigger,
		ZeroFindingsSignal:      c.zero,
	}, true
}

func optSHA(s string) *string {
	if !isSHA1(s) {
		return nil
	}
	return &s
}

func sortResponses(rs []schema.Response) {
	sort.SliceStable(rs, func(i, j int) bool {
		return lessSourceID(rs[i].Source, rs[i].ID, rs[j].Source, rs[j].ID)
	})
}

// lessSourceID orders by source, then by id as a number (ids are decimal
// strings without leading zeros, so shorter is smaller).
func lessSourceID(sa, ia, sb, ib string) bool {
	if sa != sb {
		return sa < sb
	}
	if len(ia) != len(ib) {
		return len(ia) < len(ib)
	}
	return ia < ib
}
