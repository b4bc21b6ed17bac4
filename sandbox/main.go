package sandbox

import (
	"os"
	"sync/atomic"
)

// The helper invocation: argv[1] and one variable, both required, so that
// no ordinary command line or environment is mistaken for it.
const (
	childArg = "__gh_prloop_sandbox_helper__"
	childEnv = "GH_PRLOOP_SANDBOX_HELPER"
)

// hooked records that Main ran in this process, so that Run and Probe never
// re-execute a program that would not recognize the helper invocation (a
// test binary would run its tests again).
var hooked atomic.Bool

// Main must be called first thing in main() and in TestMain of any package
// whose tests call Run or Probe. In a normal process it returns at once; in
// the helper Run starts it applies the isolation and execs the command,
// never returning.
func Main() {
	hooked.Store(true)
	if len(os.Args) == 2 && os.Args[1] == childArg && os.Getenv(childEnv) == "1" {
		os.Exit(helper())
	}
}

// childConfig is what Run tells the helper, as JSON on fd 3.
type childConfig struct {
	Argv     []string `json:"argv"`
	Env      []string `json:"env"`
	Dir      string   `json:"dir"`
	Writable []string `json:"writable"`
	Landlock bool     `json:"landlock"`
	// Probe, when set, makes the helper test the isolation instead of
	// exec'ing a command, and report a probeReport on fd 4.
	Probe *probeConfig `json:"probe,omitempty"`
}

type probeConfig struct {
	Outside string `json:"outside"` // a directory the helper must not be able to write in
	Dial    string `json:"dial"`    // a loopback listener the helper must not reach
}

type probeReport struct {
	WroteInside   bool   `json:"wrote_inside"`
	WroteOutside  bool   `json:"wrote_outside"`
	Dialed        bool   `json:"dialed"`
	DialError     string `json:"dial_error"`
	InsideError   string `json:"inside_error"`
	OutsideError  string `json:"outside_error"`
	LandlockError string `json:"landlock_error"`
}
