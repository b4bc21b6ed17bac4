package checkpoint

import (
	"fmt"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// FromPromptDocument builds the first checkpoint of a run from the prompt
// document core accepted at bootstrap (loop/initial keeps it in the run
// directory): the round-0 request, branches, remote and mode are exactly
// what the activated automation's prompt was validated against. validate
// are the run's validation command lines, fixer its fixer argv.
func FromPromptDocument(doc []byte, validate, fixer []string) (*Checkpoint, error) {
	raw, err := canon.Parse(doc)
	if err != nil {
		return nil, fmt.Errorf("prompt document: %w", err)
	}
	res, probs := bootstrap.Prompt(raw)
	if !probs.Empty() {
		return nil, fmt.Errorf("the kept prompt document no longer validates: %w", probs)
	}
	errs := problems.List{}
	pd := schema.DecodePromptDocument(raw, "", &errs)
	if !errs.Empty() {
		return nil, errs
	}
	s := pd.BootstrapSnapshot.State
	if s.RequestCommentID == nil || s.RequestCreatedAt == nil || s.RequestDeadline == nil || s.RequestHeadSHA == nil ||
		s.RemoteName == nil || s.OwnedAutomationID == nil || s.AutomationKey == nil {
		return nil, fmt.Errorf("the bootstrap state has no pending request or automation")
	}
	c := &Checkpoint{
		AutomationID:         *s.OwnedAutomationID,
		AutomationKey:        res.AutomationKey,
		BaseBranch:           s.BaseBranch,
		CompletedRequestKeys: []string{},
		Fixer:                fixer,
		FixRounds:            0,
		HeadBranch:           s.HeadBranch,
		Mode:                 s.Mode,
		PRNumber:             s.PR.Number,
		RemoteName:           *s.RemoteName,
		Repository:           s.Repository,
		RequestCommentID:     *s.RequestCommentID,
		RequestCreatedAt:     *s.RequestCreatedAt,
		RequestDeadline:      *s.RequestDeadline,
		RequestHeadSHA:       *s.RequestHeadSHA,
		RunID:                s.RunID,
		Validate:             validate,
		Version:              Version,
	}
	c.normalize()
	if _, err := Marshal(c); err != nil {
		return nil, err
	}
	return c, nil
}
