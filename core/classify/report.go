package classify

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

// ReportRunID is the run id of a report-only state: the first 32 hex of
// sha256("report-only:" + repository + "#" + number). Report-only has no
// checkpoint to hold a random id, and a random one would make two reports of
// the same unchanged PR differ; deriving it keeps the state a pure function
// of the observation. The "report-only:" prefix keeps it apart from the
// random ids real runs use.
func ReportRunID(repository string, number int64) string {
	sum := sha256.Sum256([]byte("report-only:" + repository + "#" + strconv.FormatInt(number, 10)))
	return hex.EncodeToString(sum[:])[:32]
}

// ReportState builds the report-only recurring state from one observation
// (seed: report-only supplies null manifests, plan hashes, execution
// boundary, remote name and owned automation, and an empty automation list).
// The request is the latest review request on the PR (FindRequest); no round
// was ever completed, so no thread counts as answered.
func ReportState(obs *observe.PR) (schema.State, Output) {
	if obs == nil {
		obs = &observe.PR{}
	}
	req := FindRequest(obs)
	out := Classify(Input{Obs: obs, Request: req})
	pr := obs.PullRequest
	st := schema.State{
		ActionableCodexThreads: out.Actionable,
		AuthenticatedUserID:    obs.ViewerID,
		Automations:            []schema.Automation{},
		BaseBranch:             pr.BaseRefName,
		BaseSHA:                lowerHex(pr.BaseSHA),
		CompletedRequestKeys:   []string{},
		CurrentHeadSHA:         lowerHex(pr.HeadSHA),
		EligibleCodexThreads:   out.Eligible,
		FixRounds:              0,
		Gates:                  out.Gates,
		HeadBranch:             pr.HeadRefName,
		Mode:                   policy.ModeReportOnly,
		NonCodexRootedThreads:  out.NonCodexRooted,
		ObservedAt:             obs.ObservedAt,
		PolicySchemaVersion:    policy.SchemaVersion,
		PR: schema.PRState{
			BaseBranch:     pr.BaseRefName,
			HeadBranch:     pr.HeadRefName,
			HeadSHA:        lowerHex(pr.HeadSHA),
			IsDraft:        pr.IsDraft,
			Number:         pr.Number,
			SameRepository: !pr.IsCrossRepository,
			State:          strings.ToLower(pr.State),
			URL:            pr.URL,
		},
		Repository: obs.Repository,
		Responses:  out.Responses,
		RunID:      ReportRunID(obs.Repository, pr.Number),
	}
	if req != nil {
		id, created, head := req.CommentID, req.CreatedAt, req.HeadSHA
		t, _ := instant(created) // FindRequest only returns parsed, product-form times
		dl := deadline(t)
		st.RequestCommentID, st.RequestCreatedAt, st.RequestDeadline, st.RequestHeadSHA = &id, &created, &dl, &head
	}
	return st, out
}
