// Package standalone runs the loopback GitHub world for another process:
// the API simulator, its HTTPS git server and a fresh seeded checkout with a
// pending change (ghsim/testbed), described by one Info whose Env makes a
// gh-prloop child process use exactly that world (package simenv).
//
// `gh-prloop sim` prints Info as one JSON line and runs until killed; tests
// call Start in-process and run the real binary with Info.Env.
package standalone

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/simenv"
)

// Options configure Start.
type Options struct {
	// Dir holds everything on disk (the checkout, the bare repositories,
	// the credential helper); empty means a new temporary directory that
	// Close removes. A given Dir is left for the caller.
	Dir string
	// Clock is the simulator's clock; nil means time.Now, or a ScaledClock
	// when TimeScale is set.
	Clock func() time.Time
	// TimeScale > 0 runs simulated time that many times faster than the
	// wall clock from Start (ghsim.ScaledClock); ignored when Clock is set.
	TimeScale float64
	// Scenarios are the Codex bot's answers, one per review request in
	// order (nil: DefaultScenarios). Once they are used up the bot answers
	// every further request with Clean. Findings answers report
	// testbed.RoundFindings of their findings round, so each is new.
	Scenarios []ghsim.ScenarioKind
	// BotDelay is the simulated time between the bot's steps (0: 30s).
	BotDelay time.Duration
	// Gates scripts the merge gates after every push and PR opening (nil:
	// none, the gates stay as seeded; `gh-prloop sim` passes DefaultGates).
	Gates *ghsim.GateScript
}

// DefaultScenarios is the loop of issue 8's acceptance: findings on the
// first request, findings again after the first fix, then a clean round.
func DefaultScenarios() []ghsim.ScenarioKind {
	return []ghsim.ScenarioKind{ghsim.Findings, ghsim.Findings, ghsim.ZeroFindings}
}

// DefaultGates is a CI check that passes two simulated minutes after each
// push, with no review required.
func DefaultGates() ghsim.GateScript {
	return ghsim.GateScript{CheckName: "ci / test", CheckDelay: 2 * time.Minute, Conclusion: "success"}
}

// Script is the bot's queue for kinds, each step delay apart: findings
// kinds get the bed's round findings in turn.
func Script(kinds []ghsim.ScenarioKind, delay time.Duration) []ghsim.Scenario {
	out := make([]ghsim.Scenario, 0, len(kinds))
	round := 0
	for _, k := range kinds {
		sc := ghsim.Scenario{Kind: k, StepDelay: delay}
		if k == ghsim.Findings || k == ghsim.FindingsComment {
			sc.Findings = testbed.RoundFindings(round)
			round++
		}
		out = append(out, sc)
	}
	return out
}

// Info is what a client of the world needs, printed by `gh-prloop sim`.
type Info struct {
	APIURL   string            `json:"api_url"`  // the simulator; GET APIURL+ghsim.StatePath for the world
	GitURL   string            `json:"git_url"`  // the repository's HTTPS clone URL, the checkout's origin
	Token    string            `json:"token"`    // the API token the simulator accepts (fake, loopback only)
	CAFile   string            `json:"ca_file"`  // PEM of the git server's CA
	Checkout string            `json:"checkout"` // a clone with a pending change, ready to plan
	Env      map[string]string `json:"env"`      // every variable that points gh-prloop at this world
}

// Sim is a running world.
type Sim struct {
	Bed    *testbed.Bed
	info   Info
	dir    string
	remove bool
}

// Start builds the world. On error everything started is stopped and a
// temporary directory removed.
func Start(ctx context.Context, opts Options) (_ *Sim, err error) {
	s := &Sim{dir: opts.Dir}
	if s.dir == "" {
		if s.dir, err = os.MkdirTemp("", "gh-prloop-sim-"); err != nil {
			return nil, err
		}
		s.remove = true
	}
	// s, not the named result (nil on every error return), is what was
	// started and must be stopped.
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if s.dir, err = filepath.Abs(s.dir); err != nil {
		return nil, err
	}
	clock := opts.Clock
	if clock == nil && opts.TimeScale > 0 {
		sc, err := ghsim.NewScaledClock(time.Now(), opts.TimeScale, nil)
		if err != nil {
			return nil, fmt.Errorf("standalone: %w", err)
		}
		clock = sc.Now
	}
	if s.Bed, err = testbed.New(ctx, testbed.Options{Dir: s.dir, Clock: clock}); err != nil {
		return nil, fmt.Errorf("standalone: %w", err)
	}
	kinds := opts.Scenarios
	if kinds == nil {
		kinds = DefaultScenarios()
	}
	sim := s.Bed.Sim
	sim.SetCodexScenario(ghsim.Scenario{Kind: ghsim.ZeroFindings, StepDelay: opts.BotDelay})
	sim.QueueCodexScenarios(Script(kinds, opts.BotDelay)...)
	if opts.Gates != nil {
		sim.SetGateScript(*opts.Gates)
	}
	hook := &simenv.Hook{
		APIURL:           s.Bed.Sim.URL(),
		Token:            testbed.APIToken,
		CAFile:           s.Bed.GitServer.CAFile,
		GitHost:          s.Bed.Host,
		CredentialScript: s.Bed.CredentialScript,
		ClockURL:         s.Bed.Sim.URL() + ghsim.ClockPath,
	}
	s.info = Info{
		APIURL: hook.APIURL, GitURL: s.Bed.RepoURL(), Token: hook.Token, CAFile: hook.CAFile,
		Checkout: s.Bed.Checkout, Env: hook.Env(),
	}
	return s, nil
}

// Info describes the world; Env is a fresh copy.
func (s *Sim) Info() Info {
	i := s.info
	i.Env = make(map[string]string, len(s.info.Env))
	for k, v := range s.info.Env {
		i.Env[k] = v
	}
	return i
}

// Server is the API simulator, for tests that script GitHub's side.
func (s *Sim) Server() *ghsim.Server { return s.Bed.Sim }

// Close stops both servers and removes the temporary directory Start made.
func (s *Sim) Close() {
	if s.Bed != nil {
		s.Bed.Close()
	}
	if s.remove {
		os.RemoveAll(s.dir)
	}
}
