package automations

import (
	"testing"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/policy"
)

// asValue turns what AsState returns into the parsed JSON value core reads.
func asValue(t *testing.T, v any) any {
	t.Helper()
	b, err := canon.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := canon.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// roundTrip re-parses a fixture document the way core reads its input.
func roundTrip(t *testing.T, doc map[string]any) any {
	t.Helper()
	b, err := canon.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	v, err := canon.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The registry's state view is what core's recurring-state schema reads:
// the stub is exactly the paused-bootstrap inconsistency `evaluate --prompt`
// accepts; the prompt core renders is what SetPrompt stores and Activate
// verifies; once ACTIVE the recurring evaluator finds the automation
// consistent; once deleted it finds it missing.
func TestAsStateThroughCore(t *testing.T) {
	r, _ := openTemp(t)
	ctx := t.Context()
	opts := fixture.PromptOptions{}
	key := fixture.PromptAutomationKey(opts)
	stub, err := r.CreatePaused(ctx, key, "bootstrap", fixture.InitialRunID, policy.HeartbeatRRule, t0)
	if err != nil {
		t.Fatal(err)
	}

	// evaluate --prompt on a bootstrap state carrying the registry's stub.
	view, err := r.AsState(key)
	if err != nil || len(view) != 1 {
		t.Fatalf("AsState: %v %v", view, err)
	}
	doc := fixture.PromptDocument(opts)
	st := doc["bootstrap_snapshot"].(map[string]any)["state"].(map[string]any)
	st["automations"] = asValue(t, view)
	st["owned_automation_id"] = stub.ID
	fixture.RecomputePrompt(doc)
	res, errs := bootstrap.Prompt(roundTrip(t, doc))
	if !errs.Empty() {
		t.Fatalf("core refused the registry's stub: %v", errs)
	}
	if _, err := r.SetPrompt(ctx, key, res.RenderedPrompt, t0); err != nil {
		t.Fatal(err)
	}
	active, err := r.Activate(ctx, key, res.RenderedPromptSHA256, policy.HeartbeatRRule, t0)
	if err != nil {
		t.Fatal(err)
	}
	if active.PromptSHA256 != res.RenderedPromptSHA256 {
		t.Fatalf("stored prompt hash %s, core's %s", active.PromptSHA256, res.RenderedPromptSHA256)
	}

	// The recurring evaluator on a state whose automations come from here.
	evalWith := func() evaluate.Result {
		t.Helper()
		view, err := r.AsState(key)
		if err != nil {
			t.Fatal(err)
		}
		state := fixture.State(fixture.StateOptions{Scenario: fixture.StateAwaiting})
		state["automation_key"] = key
		state["owned_automation_id"] = stub.ID
		state["automations"] = asValue(t, view)
		return evaluate.Evaluate(roundTrip(t, state))
	}
	// fixture.State's loop must be this one for the comparison to mean anything.
	if want := policy.AutomationKey(fixture.StateRepository, fixture.StatePRNumber, fixture.StateRunID); want != key {
		t.Fatalf("fixture keys differ (%s vs %s)", want, key)
	}
	if got := evalWith(); got.Action != evaluate.ActionWait || got.Reason != evaluate.ReasonAwaitingResponse {
		t.Fatalf("ACTIVE automation: %s/%s %v", got.Action, got.Reason, got.Errors)
	}
	if _, err := r.Pause(ctx, key, "halt: request-timeout", t0); err != nil {
		t.Fatal(err)
	}
	if got := evalWith(); got.Action != evaluate.ActionHalt || got.Reason != evaluate.ReasonPausedBootstrap {
		t.Fatalf("PAUSED automation: %s/%s", got.Action, got.Reason)
	}
	if err := r.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if got := evalWith(); got.Action != evaluate.ActionHalt || got.Reason != evaluate.ReasonAutomationMissing {
		t.Fatalf("deleted automation: %s/%s", got.Action, got.Reason)
	}
}

// AsState of a key holds only that key's automation, never the others',
// and an empty (never nil) list when there is none: core's "exactly one"
// check must see the registry, not a filter's accident.
func TestAsStateOnlyThatKey(t *testing.T) {
	r, _ := openTemp(t)
	stubWithPrompt(t, r, testRunID, "a")
	stubWithPrompt(t, r, testRunID2, "b")
	v, err := r.AsState(testKey(testRunID2))
	if err != nil || len(v) != 1 || v[0].Key != testKey(testRunID2) || v[0].PromptSHA256 != canon.Hash([]byte("b")) || v[0].Status != StatusPaused || v[0].RRule != policy.HeartbeatRRule {
		t.Fatalf("%+v %v", v, err)
	}
	none, err := r.AsState(policy.AutomationKey("x/y", 1, testRunID))
	if err != nil || none == nil || len(none) != 0 {
		t.Fatalf("%#v %v", none, err)
	}
	if b, _ := canon.Marshal(none); string(b) != "[]" {
		t.Fatalf("empty view encodes as %s", b)
	}
}
