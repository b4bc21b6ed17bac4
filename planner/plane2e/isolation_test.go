package plane2e

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/entrypoint"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/sandbox"
	"github.com/prloop/gh-prloop/tui/approval"
)

func probeWithout(missing ...string) planner.ProbeFunc {
	return func(context.Context) sandbox.Capabilities {
		c := sandbox.Capabilities{NoNetwork: true, WritesConfined: true, MinimalEnv: true}
		for _, g := range missing {
			switch g {
			case sandbox.GuaranteeNoNetwork:
				c.NoNetwork = false
			case sandbox.GuaranteeWritesConfined:
				c.WritesConfined = false
			}
			c.Missing = append(c.Missing, g)
			c.Reasons = append(c.Reasons, g+": injected")
		}
		return c
	}
}

func (w *world) buildWith(probe planner.ProbeFunc) (*planner.Plan, error) {
	d := w.bed.Deps()
	d.Probe = probe
	return planner.Build(context.Background(), d, w.in, w.runID)
}

// The safe isolation is claimed only when the probe shows every guarantee;
// on a machine missing any of them the plan carries explicit-risk-acceptance
// with the risk record's digest, core accepts it, and the console shows
// each missing guarantee.
func TestTheSafeIsolationIsNeverClaimedWhenTheProbeFails(t *testing.T) {
	w := newWorld(t)
	w.in.Validate = []string{"git status"}

	safe, err := w.buildWith(probeWithout())
	if err != nil {
		t.Fatal(err)
	}
	if b := safe.Doc.InitialSnapshot.ExecutionBoundary; b.Isolation != policy.IsolationSafe || b.RiskAcceptanceSHA256 != nil || safe.Risk != nil {
		t.Fatalf("full probe: isolation %q, risk %v", b.Isolation, b.RiskAcceptanceSHA256)
	}

	for _, missing := range [][]string{
		{sandbox.GuaranteeNoNetwork},
		{sandbox.GuaranteeWritesConfined},
		{sandbox.GuaranteeNoNetwork, sandbox.GuaranteeWritesConfined},
	} {
		p, err := w.buildWith(probeWithout(missing...))
		if err != nil {
			t.Fatalf("%v: %v", missing, err)
		}
		b := p.Doc.InitialSnapshot.ExecutionBoundary
		if b.Isolation != policy.IsolationRisk || b.Git.Profile != policy.RiskProfile || b.RiskAcceptanceSHA256 == nil || p.Risk == nil {
			t.Fatalf("%v: isolation %q profile %q risk %v — the safe claim was made", missing, b.Isolation, b.Git.Profile, b.RiskAcceptanceSHA256)
		}
		if !reflect.DeepEqual(p.Risk.MissingIsolation, missing) || !reflect.DeepEqual(p.Risk.Commands, p.Doc.InitialSnapshot.Commands) || len(p.Risk.Commands) != 1 {
			t.Fatalf("%v: record %+v", missing, p.Risk)
		}
		sum, err := canon.HashValue(p.Risk)
		if err != nil || sum != *b.RiskAcceptanceSHA256 {
			t.Fatalf("risk_acceptance_sha256 %s is not the record's canonical hash %s (%v)", *b.RiskAcceptanceSHA256, sum, err)
		}
		// The git protections were still enforced and are all on.
		if len(p.Risk.GitMissingProtections) != 0 || !b.Git.HooksDisabled {
			t.Fatalf("git side %+v", p.Risk)
		}
		if verdict, code := entrypoint.Run(entrypoint.KindInitial, p.Canonical); code != 0 || verdict.PlanHash != p.PlanHash {
			t.Fatalf("core refuses the risk plan: %d %+v", code, verdict)
		}
		if p.PlanHash == safe.PlanHash {
			t.Fatal("the risk plan hashes like the safe one")
		}
		// The console shows every missing guarantee.
		v := approval.FromDocument(p.Doc, p.Canonical)
		v.Risks = p.Risk.Lines()
		for _, g := range missing {
			if !strings.Contains(strings.Join(v.Risks, "\n"), g) {
				t.Fatalf("console risk lines %q lack %q", v.Risks, g)
			}
		}
	}
}

// Autonomous mode has no human to accept a risk.
func TestAutonomousModeRefusesAMissingGuarantee(t *testing.T) {
	w := newWorld(t)
	w.in.Mode = policy.ModeAutonomous
	_, err := w.buildWith(probeWithout(sandbox.GuaranteeNoNetwork))
	if err == nil || !strings.Contains(err.Error(), "injected") || !strings.Contains(err.Error(), "autonomous") {
		t.Fatalf("autonomous plan without network isolation: %v", err)
	}
	if _, err := w.buildWith(probeWithout()); err != nil {
		t.Fatalf("autonomous plan with every guarantee: %v", err)
	}
}

// Without an injected probe, Build probes this machine for real, and its
// claim agrees with what sandbox.Probe finds.
func TestTheRealProbeDecidesTheIsolation(t *testing.T) {
	w := newWorld(t)
	p, err := w.build()
	if err != nil {
		t.Fatal(err)
	}
	caps := sandbox.Probe(context.Background())
	want := policy.IsolationSafe
	if !caps.All() {
		want = policy.IsolationRisk
	}
	if got := p.Doc.InitialSnapshot.ExecutionBoundary.Isolation; got != want {
		t.Fatalf("isolation %q, probe %+v", got, caps)
	}
}
