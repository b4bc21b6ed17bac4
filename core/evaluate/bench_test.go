package evaluate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/fixture"
)

// BenchmarkEvaluateState1000 parses, decodes and evaluates a state with
// 1,000 actionable threads and 1,000 responses carrying an approved
// remediation plan over all of them (the largest work a wakeup does).
func BenchmarkEvaluateState1000(b *testing.B) {
	data, err := canon.Encode(fixture.State(fixture.StateOptions{
		Scenario: fixture.StateRemediationApproved, Threads: 1000, Responses: 1000}))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		v, err := canon.Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		if r := evaluate.Evaluate(v); r.Action != evaluate.ActionExecuteRemediation {
			b.Fatalf("%s/%s %v", r.Action, r.Reason, r.Errors)
		}
	}
}
