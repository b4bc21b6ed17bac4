package initial_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
)

// Every write of the initial plan meets a fault: applied then answered
// 5xx, applied then dropped (a timeout after delivery), or refused 5xx
// without effect. ghclient reports "delivery unknown" and never retries;
// the executor re-observes and either receipts what landed or stops, and
// the next apply reconciles. The end state always has exactly one PR and
// one request comment.
func TestWritesUnderInjectedFaults(t *testing.T) {
	t.Parallel()
	paths := []string{"/repos/*/*/pulls", "/repos/*/*/issues/*/comments"} // create-pr, request-codex-review
	kinds := map[string]ghsim.FaultKind{
		"5xx after delivery":     ghsim.FaultStatusAfter,
		"timeout after delivery": ghsim.FaultDropAfter,
		"5xx before delivery":    ghsim.FaultStatus,
	}
	for kname, kind := range kinds {
		t.Run(kname, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t, nil)
			w.approve()
			for _, p := range paths {
				w.bed.Sim.InjectFault(ghsim.Fault{Kind: kind, Match: ghsim.Match{Method: "POST", Path: p}})
			}
			res, err := w.execute(nil)
			if kind == ghsim.FaultStatus {
				// Nothing landed: the executor must not send again on its
				// own; each next apply observes and sends once.
				for range paths {
					var du *ghclient.DeliveryUnknownError
					if !errors.As(err, &du) || !strings.Contains(err.Error(), "run apply again") {
						t.Fatalf("apply: %v, want a delivery-unknown stop", err)
					}
					res, err = w.execute(nil)
				}
			}
			if err != nil {
				t.Fatalf("apply: %v", err)
			}
			if w.bed.Sim.PendingFaults() != 0 {
				t.Fatal("a fault was never hit")
			}
			w.checkEndState(res)
		})
	}
}
