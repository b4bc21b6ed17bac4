package approval

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
)

// The goldens are the screens at 100x30 under the ASCII colour profile;
// regenerate with `go test ./tui/approval -run Golden -update` and review
// the diff like code.

func TestGoldenReview(t *testing.T) {
	m := New(Config{View: sampleView(t)}, asciiStyles())
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	golden.RequireEqual(t, []byte(m.View()))
}

func TestGoldenRefusal(t *testing.T) {
	v := sampleView(t)
	m := New(Config{View: v}, asciiStyles())
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.ToUpper(v.PlanHash))})
	m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	golden.RequireEqual(t, []byte(m.View()))
}

func TestGoldenDrift(t *testing.T) {
	v := sampleView(t)
	rebuilt, data := fixtureDoc(t, func(doc map[string]any) {
		doc["initial_snapshot"].(map[string]any)["base_sha"] = strings.Repeat("3", 40)
	})
	m := New(Config{View: v}, asciiStyles())
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.state = stateChecking
	m.Update(recheckCmd(t.Context(), fixedRecheck(RecheckResult{Document: data, PlanHash: rebuilt["initial_plan_hash"].(string)}), v.PlanHash, v.Document)())
	if m.state != stateDrift {
		t.Fatalf("state %d", m.state)
	}
	golden.RequireEqual(t, []byte(m.View()))
}

func fixedRecheck(r RecheckResult) func(context.Context) (RecheckResult, error) {
	return func(context.Context) (RecheckResult, error) { return r, nil }
}
