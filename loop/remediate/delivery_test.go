package remediate_test

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/internal/looptest"
)

// The round's request comment under a 5xx after delivery (it landed) and
// before delivery (it did not): never sent blindly again, exactly one
// request in the world after the next run.
func TestRequestUnderDeliveryFaults(t *testing.T) {
	for name, kind := range map[string]ghsim.FaultKind{"after delivery": ghsim.FaultStatusAfter, "before delivery": ghsim.FaultStatus} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := looptest.New(t)
			fixer := w.FixerScript(w.Paths()...)
			pushes0 := w.Bed.GitServer.Pushes()
			w.Bed.Sim.InjectFault(ghsim.Fault{Kind: kind, Match: ghsim.Match{Method: "POST", Path: "/repos/*/*/issues/*/comments"}})
			res, err := w.Execute(nil, fixer)
			if kind == ghsim.FaultStatus {
				if err == nil || !strings.Contains(err.Error(), "nothing was sent again") {
					t.Fatalf("first run: %v, want a delivery-unknown stop", err)
				}
				if res, err = w.Execute(nil, fixer); err != nil {
					t.Fatalf("second run: %v", err)
				}
			} else if err != nil {
				t.Fatalf("run: %v", err)
			}
			checkEnd(w, res, pushes0)
		})
	}
}
