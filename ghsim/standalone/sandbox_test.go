package standalone_test

import (
	"context"
	"net/url"
	"os"
	"testing"

	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/sandbox"
)

// A validation command run in the sandbox from the simulator's checkout
// cannot open a TCP connection to the simulator; the same command with the
// network allowed can, so the failure is the sandbox's.
func TestSandboxedCommandCannotReachTheSimulator(t *testing.T) {
	caps := sandbox.Probe(context.Background())
	if !caps.NoNetwork {
		t.Skipf("no network isolation here: %v", caps.Reasons)
	}
	sim, err := standalone.Start(context.Background(), standalone.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	info := sim.Info()
	api, err := url.Parse(info.APIURL)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{api.Host, sim.Bed.Host} {
		spec := sandbox.Spec{Argv: []string{exe, "dial", host}, Dir: info.Checkout}
		res, err := sandbox.Run(context.Background(), spec)
		if err != nil || res.ExitCode == 0 {
			t.Fatalf("sandboxed dial of %s: exit %d, %v: %s", host, res.ExitCode, err, res.Output)
		}
		spec.AllowNetwork = true
		res, err = sandbox.Run(context.Background(), spec)
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("dial of %s with the network allowed: exit %d, %v: %s", host, res.ExitCode, err, res.Output)
		}
	}
}
