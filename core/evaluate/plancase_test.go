package evaluate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/internal/ruletest"
	"github.com/prloop/gh-prloop/core/problems"
)

// planCase changes one thing in a state holding a plan (remediation or
// finalization manifest) and says what the plan validator must report.
type planCase struct {
	name   string
	opts   fixture.StateOptions
	mutate func(st, m map[string]any)
	keep   bool
	path   string // "" = the plan must be accepted
	code   string
	others bool
}

// runPlanCases builds each case's state (scenario unless the case names
// one), lets it mutate the state and the manifest at key, re-seals it unless
// keep is set, and checks what validate reports.
func runPlanCases(t *testing.T, cases []planCase, scenario fixture.StateScenario, key string,
	validate func(*testing.T, map[string]any) problems.List) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			if opts.Scenario == 0 {
				opts.Scenario = scenario
			}
			st := fixture.State(opts)
			tc.mutate(st, ruletest.Obj(st, key))
			if !tc.keep {
				fixture.RecomputeState(st)
			}
			checkPlanCase(t, validate(t, st), tc)
		})
	}
}

func checkPlanCase(t *testing.T, errs problems.List, tc planCase) {
	t.Helper()
	switch {
	case tc.path == "":
		if len(errs) != 0 {
			t.Fatalf("the plan must be accepted, got %s", describe(errs))
		}
	case tc.others:
		wantHas(t, errs, tc.path, tc.code)
	default:
		wantOnly(t, errs, tc.path, tc.code)
	}
}
