package validate

import (
	"strings"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
)

// markerPrefix opens every request marker; a template carries exactly one, so
// a request can never name two runs or rounds.
const markerPrefix = "<!-- github-codex-pr-loop-request "

// CheckReviewTemplate enforces the review-request template rules shared by
// the initial (round 0) and remediation (round fix_rounds+1) manifests:
// the first line is exactly the documented trigger "@codex review" (any
// other "@codex …" wording starts a Codex cloud task, which never answers as
// a review), exactly one {{FINAL_HEAD_SHA}}, no other placeholder (PROTOCOL §3:
// nothing else that starts with "{{" or ends with "}}"), and exactly one
// request marker, which is the canonical one for runID and round.
func CheckReviewTemplate(tmpl, runID string, round int, path string, errs *problems.List) {
	if first, _, _ := strings.Cut(tmpl, "\n"); first != policy.ReviewTrigger {
		errs.Add(path, problems.Template, "the first line must be exactly %q, the documented way to ask Codex for a review", policy.ReviewTrigger)
	}
	checkPlaceholders(tmpl, []string{policy.FinalHeadShaMarker}, path, errs)
	marker := policy.RequestMarker(runID, round, policy.FinalHeadShaMarker)
	if !strings.Contains(tmpl, marker) {
		errs.Add(path, problems.Template, "must contain the canonical marker %q", marker)
	}
	if n := strings.Count(tmpl, markerPrefix); n > 1 {
		errs.Add(path, problems.Template, "must contain exactly one request marker, found %d", n)
	}
}

// CheckPromptTemplate enforces the automation prompt template's placeholder
// rule. The template must also equal policy.AutomationPromptTemplate, which
// Initial checks separately; this rule keeps the policy constant honest.
func CheckPromptTemplate(tmpl, path string, errs *problems.List) {
	checkPlaceholders(tmpl, []string{policy.AutomationKeyMarker, policy.CheckpointMarker}, path, errs)
}

// checkPlaceholders requires each allowed placeholder exactly once and, once
// those are cut out, no "{{" or "}}" left anywhere.
func checkPlaceholders(tmpl string, allowed []string, path string, errs *problems.List) {
	rest := tmpl
	for _, ph := range allowed {
		if n := strings.Count(tmpl, ph); n != 1 {
			errs.Add(path, problems.Placeholder, "%s must appear exactly once, found %d", ph, n)
		}
		rest = strings.ReplaceAll(rest, ph, "\x00")
	}
	if strings.Contains(rest, "{{") || strings.Contains(rest, "}}") {
		errs.Add(path, problems.Placeholder, "no placeholder other than %s is allowed", strings.Join(allowed, ", "))
	}
}
