package initial_test

import (
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/sandbox"
)

// Validation commands run in the sandbox before anything is staged: a
// passing one lets the run finish and its output reaches the events and the
// run directory; one that fails, that opens a TCP connection to the
// simulator, or that writes outside the checkout halts the run at
// run-validation with nothing staged, committed or pushed.
func TestValidationRunsInTheSandbox(t *testing.T) {
	t.Parallel()
	if caps := sandbox.Probe(t.Context()); !caps.All() {
		t.Skipf("this machine cannot give the sandbox's guarantees: %v", caps.Reasons)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is needed for the network probe command")
	}
	outside := filepath.Join(t.TempDir(), "escaped")
	cases := []struct {
		name    string
		line    func(w *world) string
		passes  bool
		outside bool
	}{
		{"passing", func(*world) string { return `/bin/sh -c "echo validated-ok"` }, true, false},
		{"failing", func(*world) string { return `/bin/sh -c "echo boom; exit 3"` }, false, false},
		{"network", func(w *world) string {
			u, _ := url.Parse(w.bed.Sim.URL())
			return python + ` -c "import socket; socket.create_connection(('` + u.Hostname() + `', ` + u.Port() + `), timeout=5)"`
		}, false, false},
		{"write outside", func(*world) string { return `/bin/sh -c "echo x > ` + outside + `"` }, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var w *world
			w = newWorld(t, func(in *planner.Inputs) {})
			w.in.Validate = []string{c.line(w)}
			w.approve()
			if ops := w.plan.Doc.InitialManifest.Operations; ops[1] != policy.OpRunValidation {
				t.Fatalf("operations %v", ops)
			}
			if iso := w.plan.Doc.InitialSnapshot.ExecutionBoundary.Isolation; iso != policy.IsolationSafe {
				t.Fatalf("isolation %s on a machine that gives every guarantee", iso)
			}
			res, err := w.execute(nil)
			var output []string
			for _, e := range w.events {
				if e.Event == initial.EventOutput {
					output = append(output, e.Detail)
				}
			}
			if c.passes {
				if err != nil {
					t.Fatalf("execute: %v", err)
				}
				if !slicesContains(output, "validated-ok") {
					t.Fatalf("the command's output did not reach the events: %q", output)
				}
				log, err := w.run().Read("validation-01.log")
				if err != nil || !strings.Contains(string(log), "validated-ok") {
					t.Fatalf("validation log %q %v", log, err)
				}
				w.checkEndState(res)
				return
			}
			var h *initial.HaltError
			if !errors.As(err, &h) || h.Op != policy.OpRunValidation {
				t.Fatalf("err = %v, want a run-validation halt", err)
			}
			if n := w.bed.GitServer.Pushes() - w.pushes0; n != 0 {
				t.Fatalf("%d pushes after a failed validation", n)
			}
			if staged := w.bareGitIn(w.bed.Checkout, "diff", "--cached", "--name-only"); staged != "" {
				t.Fatalf("staged after a failed validation: %q", staged)
			}
			if c.outside {
				if _, err := os.Stat(outside); err == nil {
					t.Fatal("the command wrote outside the checkout")
				}
			}
		})
	}
}

func slicesContains(xs []string, s string) bool {
	for _, x := range xs {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// On a machine that cannot give a guarantee the plan carries
// explicit-risk-acceptance with the record bound by risk_acceptance_sha256;
// the executor verifies the record and runs the command accepting exactly
// the missing guarantee.
func TestValidationUnderAcceptedRisk(t *testing.T) {
	t.Parallel()
	if caps := sandbox.Probe(t.Context()); !caps.All() {
		t.Skipf("this machine cannot give the sandbox's guarantees: %v", caps.Reasons)
	}
	weak := func(context.Context) sandbox.Capabilities {
		return sandbox.Capabilities{WritesConfined: true, MinimalEnv: true,
			Missing: []string{sandbox.GuaranteeNoNetwork}, Reasons: []string{sandbox.GuaranteeNoNetwork + ": test machine"}}
	}
	w := newWorld(t, nil)
	w.in.Validate = []string{`/bin/sh -c "echo validated-ok"`}
	w.probe = weak
	w.approve()
	b := w.plan.Doc.InitialSnapshot.ExecutionBoundary
	if b.Isolation != policy.IsolationRisk || b.RiskAcceptanceSHA256 == nil || w.plan.Risk == nil {
		t.Fatalf("isolation %s, risk %v: the safe claim was made on a machine without a guarantee", b.Isolation, w.plan.Risk)
	}
	res, err := w.execute(nil)
	if err != nil {
		t.Fatalf("execute: %v", err)
	}
	w.checkEndState(res)
}
