package bootstrap

import (
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
)

// Render fills the v1 automation prompt template with the loop key and the
// canonical JSON of the complete bootstrap snapshot. It substitutes in one
// pass over the template, so placeholder text inside the inserted JSON (a PR
// title may contain "{{AUTOMATION_KEY}}") is never substituted again.
func Render(automationKey string, bootstrapSnapshotRaw any) (string, error) {
	checkpoint, err := canon.Encode(bootstrapSnapshotRaw)
	if err != nil {
		return "", err
	}
	r := strings.NewReplacer(
		policy.AutomationKeyMarker, automationKey,
		policy.CheckpointMarker, string(checkpoint),
	)
	return r.Replace(policy.AutomationPromptTemplate), nil
}

// RenderReviewBody is the review-request body: the approved template with
// its one {{FINAL_HEAD_SHA}} replaced by the verified final head.
func RenderReviewBody(template, finalHeadSHA string) string {
	return strings.Replace(template, policy.FinalHeadShaMarker, finalHeadSHA, 1)
}
