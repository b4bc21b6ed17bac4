// Package entrypoint is the pure half of `gh-prloop evaluate`: bytes in, one
// result object and an exit status out (PROTOCOL §4). The CLI only reads the
// input and prints what this returns, so the whole contract is unit-testable.
package entrypoint

import (
	"errors"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/validate"
)

// Exit statuses of `evaluate` (PROTOCOL §4).
const (
	ExitOK      = 0 // valid, or an action was emitted
	ExitInvalid = 1 // invalid document or inconsistent state
	ExitUsage   = 2 // usage or I/O error (decided by the CLI)
)

// Kinds of entry.
const (
	KindInitial = "initial"
	KindPrompt  = "prompt"
	KindState   = "state"
)

// Output is the single JSON object `evaluate` prints. Fields that do not apply
// to a kind are omitted; errors is always present (possibly empty).
type Output struct {
	OK                   bool          `json:"ok"`
	Kind                 string        `json:"kind"`
	PlanHash             string        `json:"plan_hash,omitempty"`
	SnapshotSHA256       string        `json:"snapshot_sha256,omitempty"`
	Operations           []string      `json:"operations,omitempty"`
	AutomationKey        string        `json:"automation_key,omitempty"`
	RenderedPromptSHA256 string        `json:"rendered_prompt_sha256,omitempty"`
	Action               string        `json:"action,omitempty"`
	Reason               string        `json:"reason,omitempty"`
	Message              string        `json:"message,omitempty"`
	Classification       string        `json:"classification,omitempty"`
	Inconsistencies      []string      `json:"inconsistencies,omitempty"`
	Errors               problems.List `json:"errors"`
}

// Run evaluates one input document of the given kind.
func Run(kind string, input []byte) (Output, int) {
	raw, err := canon.Parse(input)
	if err != nil {
		out := Output{OK: false, Kind: kind, Errors: problems.List{syntaxProblem(err)}}
		if kind == KindState {
			out.Action, out.Reason = "halt", "schema"
		}
		return out, ExitInvalid
	}
	switch kind {
	case KindInitial:
		res, errs := validate.Initial(raw)
		if !errs.Empty() {
			return Output{Kind: kind, Errors: errs}, ExitInvalid
		}
		return Output{OK: true, Kind: kind, PlanHash: res.PlanHash, SnapshotSHA256: res.SnapshotSHA256,
			Operations: res.Operations, Errors: problems.List{}}, ExitOK
	case KindPrompt:
		res, errs := bootstrap.Prompt(raw)
		if !errs.Empty() {
			return Output{Kind: kind, Errors: errs}, ExitInvalid
		}
		return Output{OK: true, Kind: "prompt-ready", AutomationKey: res.AutomationKey,
			RenderedPromptSHA256: res.RenderedPromptSHA256, Errors: problems.List{}}, ExitOK
	case KindState:
		r := evaluate.Evaluate(raw)
		out := Output{OK: r.OK, Kind: kind, Action: r.Action, Reason: r.Reason, Message: r.Message,
			Classification: r.Classification, Inconsistencies: r.Inconsistencies, PlanHash: r.PlanHash, Errors: r.Errors}
		if out.Errors == nil {
			out.Errors = problems.List{}
		}
		if r.OK {
			return out, ExitOK
		}
		return out, ExitInvalid
	}
	return Output{Kind: kind, Errors: problems.List{{Path: "", Code: "usage", Message: "unknown kind " + kind}}}, ExitUsage
}

func syntaxProblem(err error) problems.Problem {
	var se *canon.SyntaxError
	if errors.As(err, &se) {
		return problems.Problem{Path: "", Code: se.Code, Message: se.Error()}
	}
	return problems.Problem{Path: "", Code: problems.Syntax, Message: err.Error()}
}
