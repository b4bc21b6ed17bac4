package initial

import (
	"context"
	"time"

	"github.com/prloop/gh-prloop/automations"
)

// registry adapts the automation registry (package automations) to the
// executor's Registry.
type registry struct{ r *automations.Registry }

// FromAutomations is the executor's view of the automation registry.
func FromAutomations(r *automations.Registry) Registry { return registry{r} }

func fromRecord(rec automations.Record) Automation {
	return Automation{ID: rec.ID, Key: rec.Key, Prompt: rec.Prompt, PromptSHA256: rec.PromptSHA256, RRule: rec.RRule, Status: rec.Status, RunID: rec.RunID}
}

func (g registry) Get(ctx context.Context, key string) (Automation, bool, error) {
	rec, ok, err := g.r.Get(ctx, key)
	return fromRecord(rec), ok, err
}

func (g registry) CreatePaused(ctx context.Context, key, name, runID, rrule string, now time.Time) (Automation, error) {
	rec, err := g.r.CreatePaused(ctx, key, name, runID, rrule, now)
	return fromRecord(rec), err
}

func (g registry) SetPrompt(ctx context.Context, key, prompt string, now time.Time) (Automation, error) {
	rec, err := g.r.SetPrompt(ctx, key, prompt, now)
	return fromRecord(rec), err
}

func (g registry) Activate(ctx context.Context, key, wantSHA, wantRRule string, now time.Time) (Automation, error) {
	rec, err := g.r.Activate(ctx, key, wantSHA, wantRRule, now)
	return fromRecord(rec), err
}
