package evaluate

import (
	"fmt"

	"github.com/prloop/gh-prloop/core/schema"
)

// report is step 2: report-only classifies and never plans a write.
func report(s schema.State) Result {
	class, msg := classifyReport(s)
	r := result(ActionReport, class, msg)
	r.Classification = class
	return r
}

func classifyReport(s schema.State) (class, message string) {
	if s.RequestCommentID == nil {
		return ClassNoRequest, "no canonical review request on this pull request"
	}
	v := readVerdict(s)
	switch {
	case v.qualifying == 0:
		return ClassAwaitingResponse, "no Codex response to request " + requestKey(s) + " yet"
	case len(s.ActionableCodexThreads) > 0 || v.findings:
		return ClassFindings, fmt.Sprintf("Codex has findings: %d actionable threads", len(s.ActionableCodexThreads))
	case v.zero && onRequestedHead(s):
		return ClassZeroFindings, "Codex found no major issues on " + s.CurrentHeadSHA
	}
	return ClassAmbiguous, fmt.Sprintf("%d Codex responses are neither findings nor a zero-findings verdict for the current head", v.qualifying)
}

// onRequestedHead: report-only skips the consistency step, so a zero-findings
// verdict counts only while the pull request still has the requested head.
func onRequestedHead(s schema.State) bool {
	return s.RequestHeadSHA != nil && *s.RequestHeadSHA == s.CurrentHeadSHA && s.PR.HeadSHA == s.CurrentHeadSHA
}
