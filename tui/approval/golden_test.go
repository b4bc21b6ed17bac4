package approval

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
)

// The goldens are the screens at 60x18 (the minimum), 80x24 and 120x40
// under the ASCII colour profile (as with NO_COLOR); regenerate with
// `go test ./tui/approval -run Golden -update` and review the diff like
// code.

var goldenSizes = []struct {
	name          string
	width, height int
}{{"60x18", 60, 18}, {"80x24", 80, 24}, {"120x40", 120, 40}}

func goldenModel(t *testing.T, v View, w, h int) *Model {
	t.Helper()
	m := New(Config{View: v}, asciiStyles())
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	settle(m)
	return m
}

func TestGoldenReview(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(sz.name, func(t *testing.T) {
			golden.RequireEqual(t, []byte(goldenModel(t, sampleView(t), sz.width, sz.height).View()))
		})
	}
}

// The typed-hash cases: what the screen says while typing (live feedback)
// and after enter (a refusal that keeps the input and names the group).
func TestGoldenTypedHash(t *testing.T) {
	v := sampleView(t)
	h := v.PlanHash
	g := hashGroups(h)
	wrong := []byte(h)
	wrong[19] ^= 1 // in group 3
	cases := []struct {
		name, typed string
		enter       bool
	}{
		{"spaced", strings.Join(g, " "), false},
		{"two-line-paste", "  " + strings.Join(g[:4], " ") + "\n           " + strings.Join(g[4:], " ") + "\n", false},
		{"uppercase", strings.ToUpper(h), true},
		{"prefix", h[:24], true},
		{"wrong-group", string(wrong), true},
	}
	for _, sz := range goldenSizes {
		for _, c := range cases {
			t.Run(sz.name+"-"+c.name, func(t *testing.T) {
				m := goldenModel(t, v, sz.width, sz.height)
				m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(c.typed), Paste: true})
				if c.enter {
					m.Update(tea.KeyMsg{Type: tea.KeyEnter})
				}
				golden.RequireEqual(t, []byte(m.View()))
			})
		}
	}
}

func TestGoldenDrift(t *testing.T) {
	v := sampleView(t)
	rebuilt, data := fixtureDoc(t, func(doc map[string]any) {
		doc["initial_snapshot"].(map[string]any)["base_sha"] = strings.Repeat("3", 40)
	})
	blobs := map[string]string{"README.md": "changed", "src/long.txt": v.Files[1].NewBlob, "docs/new.md": v.Files[2].NewBlob}
	for _, sz := range goldenSizes {
		t.Run(sz.name, func(t *testing.T) {
			m := goldenModel(t, v, sz.width, sz.height)
			m.state = stateChecking
			m.Update(recheckCmd(t.Context(), fixedRecheck(RecheckResult{Document: data, PlanHash: rebuilt["initial_plan_hash"].(string), Blobs: blobs}), v.PlanHash, v.Document, v.Files)())
			if m.state != stateDrift {
				t.Fatalf("state %d", m.state)
			}
			golden.RequireEqual(t, []byte(m.View()))
		})
	}
}

// Hidden characters in a path and a diff are shown as escapes under a
// warning, and a long line wraps instead of being cut.
func TestGoldenHiddenAndLong(t *testing.T) {
	v := sampleView(t)
	v.Files = bindFiles(File{Path: "src/\u200bauth.go", Status: Added,
		New: "if pass\U000E0041word == input {\n" + strings.Repeat("x", 140) + " exfiltrate()\n"})
	for _, sz := range goldenSizes {
		t.Run(sz.name, func(t *testing.T) {
			m := goldenModel(t, v, sz.width, sz.height)
			golden.RequireEqual(t, []byte(m.View()))
		})
	}
}

func fixedRecheck(r RecheckResult) func(context.Context) (RecheckResult, error) {
	return func(context.Context) (RecheckResult, error) { return r, nil }
}
