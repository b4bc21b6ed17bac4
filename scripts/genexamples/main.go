// Command genexamples writes the example documents under examples/ from the
// same fixtures the tests use, so the examples can never drift from the rules.
// Run it with `make examples`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/fixture"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genexamples DIR")
		os.Exit(2)
	}
	for name, b := range Examples() {
		p := filepath.Join(os.Args[1], name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			fail(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			fail(err)
		}
	}
}

// Examples returns every example file's name and bytes.
func Examples() map[string][]byte {
	out := map[string][]byte{}
	write := func(name string, v any) {
		b, err := canon.Encode(v)
		if err != nil {
			fail(err)
		}
		out[name] = append(b, '\n')
	}
	write("initial/plan-new-pr.json", fixture.InitialDocument(fixture.InitialOptions{}))
	write("initial/plan-reuse-pr-no-commit.json", fixture.InitialDocument(fixture.InitialOptions{ReusePR: true, NoCommit: true}))
	write("initial/plan-autonomous-risk-accepted.json", fixture.InitialDocument(fixture.InitialOptions{Autonomous: true, RiskAcceptance: true}))
	bad := fixture.InitialDocument(fixture.InitialOptions{})
	ops := bad["initial_manifest"].(map[string]any)["operations"].([]any)
	ops[0], ops[1] = ops[1], ops[0]
	fixture.RecomputeInitial(bad)
	write("initial/invalid-operation-order.json", bad)
	write("prompt/bootstrap.json", fixture.PromptDocument(fixture.PromptOptions{}))

	states := []struct {
		name string
		opts fixture.StateOptions
	}{
		{"01-wait-awaiting-response", fixture.StateOptions{Scenario: fixture.StateAwaiting}},
		{"02-halt-request-timeout", fixture.StateOptions{Scenario: fixture.StateTimeout}},
		{"03-plan-remediation", fixture.StateOptions{Scenario: fixture.StateFindings}},
		{"04-await-approval-remediation", fixture.StateOptions{Scenario: fixture.StateRemediationPlanned}},
		{"05-execute-remediation", fixture.StateOptions{Scenario: fixture.StateRemediationApproved}},
		{"06-plan-finalization", fixture.StateOptions{Scenario: fixture.StateZeroFindings}},
		{"07-await-approval-finalization", fixture.StateOptions{Scenario: fixture.StateFinalizationPlanned}},
		{"08-execute-finalization", fixture.StateOptions{Scenario: fixture.StateFinalizationApproved}},
		{"09-finish-finalization", fixture.StateOptions{Scenario: fixture.StatePostMutation}},
		{"10-done", fixture.StateOptions{Scenario: fixture.StateFinalized}},
		{"11-wait-claimed", fixture.StateOptions{Scenario: fixture.StateClaimed}},
		{"12-halt-stale-claim", fixture.StateOptions{Scenario: fixture.StateStaleClaim}},
		{"13-halt-ambiguous", fixture.StateOptions{Scenario: fixture.StateAmbiguous}},
		{"14-halt-fix-round-limit", fixture.StateOptions{Scenario: fixture.StateFixLimit}},
		{"15-halt-paused-bootstrap", fixture.StateOptions{Scenario: fixture.StateBootstrap}},
		{"16-report-no-request", fixture.StateOptions{Scenario: fixture.StateNoRequest, Mode: "report-only"}},
		{"17-report-findings", fixture.StateOptions{Scenario: fixture.StateFindings, Mode: "report-only"}},
		{"18-report-zero-findings", fixture.StateOptions{Scenario: fixture.StateZeroFindings, Mode: "report-only"}},
		{"19-execute-remediation-autonomous", fixture.StateOptions{Scenario: fixture.StateRemediationPlanned, Mode: "autonomous"}},
	}
	for _, s := range states {
		write("state/"+s.name+".json", fixture.State(s.opts))
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "genexamples:", err)
	os.Exit(1)
}
