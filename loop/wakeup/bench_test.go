package wakeup_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/loop/checkpoint"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/statestore"
)

// addIdleLoops clones the world's loop n-1 times: each clone is its own
// run (own run id, checkpoint, lock and ACTIVE automation) waiting on the
// same pull request, which is what a registry of idle loops costs to wake.
func (w *world) addIdleLoops(tb testing.TB, n int) {
	ctx := context.Background()
	w.wake() // writes the first checkpoint
	base, err := checkpoint.Read(w.run())
	if err != nil {
		tb.Fatal(err)
	}
	now := w.clock.Now()
	for i := 1; i < n; i++ {
		c := *base
		c.RunID = fmt.Sprintf("%032x", i)
		c.AutomationKey = policy.AutomationKey(c.Repository, c.PRNumber, c.RunID)
		prompt := "prompt of " + c.RunID
		if _, err := w.reg.CreatePaused(ctx, c.AutomationKey, "clone", c.RunID, policy.HeartbeatRRule, now); err != nil {
			tb.Fatal(err)
		}
		if _, err := w.reg.SetPrompt(ctx, c.AutomationKey, prompt, now); err != nil {
			tb.Fatal(err)
		}
		rec, err := w.reg.Activate(ctx, c.AutomationKey, canon.Hash([]byte(prompt)), policy.HeartbeatRRule, now)
		if err != nil {
			tb.Fatal(err)
		}
		c.AutomationID = rec.ID
		run, err := statestore.OpenPlan(w.state, c.RunID)
		if err != nil {
			tb.Fatal(err)
		}
		unlock, err := run.Lock(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		err = checkpoint.Write(run, &c)
		unlock()
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkWakeupAllIdle: `wakeup --all` over 100 idle loops on the
// simulator. Reported per --all pass: GitHub requests, charged REST
// requests, GraphQL points, git network requests, and wall time (ns/op).
func BenchmarkWakeupAllIdle(b *testing.B) {
	const loops = 100
	w := newWorld(b, policy.ModeApprovalGated, ghsim.Scenario{Kind: ghsim.Silent})
	w.addIdleLoops(b, loops)
	d := w.deps()
	// One pass learns every request's node id, as the first wakeup does.
	if outs, err := wakeup.All(context.Background(), d); err != nil || len(outs) != loops {
		b.Fatalf("%v, %d outcomes", err, len(outs))
	}
	w.bed.Sim.ResetStats()
	git0 := w.bed.GitServer.Requests()
	b.ResetTimer()
	for range b.N {
		outs, err := wakeup.All(context.Background(), d)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range outs {
			if o.Action != evaluate.ActionWait {
				b.Fatalf("%+v", o)
			}
		}
	}
	b.StopTimer()
	st := w.bed.Sim.Stats()
	n := float64(b.N)
	b.ReportMetric(float64(st.REST+st.GraphQL)/n, "requests/op")
	b.ReportMetric(float64(st.REST-st.REST304)/n, "rest-charged/op")
	b.ReportMetric(float64(st.GraphQLPoints)/n, "points/op")
	b.ReportMetric(float64(w.bed.GitServer.Requests()-git0)/n, "git-requests/op")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/n/loops, "ms/loop")
}
