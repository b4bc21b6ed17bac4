package main

import (
	"context"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/simenv"
)

// Under `gh-prloop sim --time-scale N` the product's clock is the
// simulator's: the times it records (observed_at, approvals, claims) must
// not fall behind the times the simulated GitHub writes, or core rightly
// refuses them as time travel.
func TestUnderTheSimulatorTheClockIsTheSimulators(t *testing.T) {
	sim, err := standalone.Start(context.Background(), standalone.Options{Dir: t.TempDir(), TimeScale: 600})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	for k, v := range sim.Info().Env {
		t.Setenv(k, v)
	}
	hook, err := simenv.FromEnv(func(k string) string { return sim.Info().Env[k] })
	if err != nil || hook == nil {
		t.Fatalf("hook: %v", err)
	}
	before, err := hook.Now(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := defaultNow()()
	if got.Before(before) || !got.After(time.Now()) {
		t.Fatalf("defaultNow %s: the simulator read %s before it, the wall clock is %s", got, before, time.Now())
	}
}
