package evaluate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/fixture"
)

// benchmarkEvaluate parses, decodes and evaluates one state per iteration,
// as `evaluate --state` does.
func benchmarkEvaluate(b *testing.B, opts fixture.StateOptions, action string) {
	data, err := canon.Encode(fixture.State(opts))
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
		if r := evaluate.Evaluate(v); r.Action != action {
			b.Fatalf("%s/%s %v", r.Action, r.Reason, r.Errors)
		}
	}
}

// BenchmarkEvaluateState1000: a state with 1,000 actionable threads and
// 1,000 responses (plan-remediation).
func BenchmarkEvaluateState1000(b *testing.B) {
	benchmarkEvaluate(b, fixture.StateOptions{Scenario: fixture.StateFindings, Threads: 1000, Responses: 1000},
		evaluate.ActionPlanRemediation)
}

// BenchmarkEvaluateState1000WithPlan: the same state carrying an approved
// remediation plan that repeats all 1,000 threads and responses, so the
// input is twice the size and the plan is validated too (execute-remediation).
func BenchmarkEvaluateState1000WithPlan(b *testing.B) {
	benchmarkEvaluate(b, fixture.StateOptions{Scenario: fixture.StateRemediationApproved, Threads: 1000, Responses: 1000},
		evaluate.ActionExecuteRemediation)
}
