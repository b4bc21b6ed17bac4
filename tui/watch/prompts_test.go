package watch

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/prloop/gh-prloop/loop/status"
	"github.com/prloop/gh-prloop/tui/app"
	"github.com/prloop/gh-prloop/tui/testutil"
)

var promptPaths = []string{"docs/retry.md", "internal/fetch/backoff.go", "internal/fetch/loop.go"}

const promptDiff = "diff --git a/internal/fetch/loop.go b/internal/fetch/loop.go\n" +
	"index 1111111..2222222 100644\n--- a/internal/fetch/loop.go\n+++ b/internal/fetch/loop.go\n" +
	"@@ -86,4 +86,6 @@ func fetch() {\n \tfor {\n \t\tresp, err := get()\n-\t\tif err != nil {\n+\t\tif resp != nil && resp.StatusCode < 500 {\n+\t\t\treturn resp, nil // stop on 4xx\u200b\n+\t\t}\n+\t\tif err != nil {\n \t\t\tcontinue\n"

// editingWakeup is a wakeup whose executor asks for the hand edit and
// then the diff, recording the answers, as remediate.Execute does.
type editingWakeup struct {
	p       *Prompts
	mu      sync.Mutex
	answers []error
}

func (e *editingWakeup) run(ctx context.Context, _ func(status.Loop)) (status.Loop, error) {
	err := e.p.HandEdit(ctx, promptPaths)
	e.record(err)
	if err == nil {
		e.record(e.p.ConfirmDiff(ctx, []byte(promptDiff)))
	}
	return executing(), nil
}

func (e *editingWakeup) record(err error) {
	e.mu.Lock()
	e.answers = append(e.answers, err)
	e.mu.Unlock()
}

func (e *editingWakeup) got() []error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]error(nil), e.answers...)
}

func promptModel(t *testing.T, w, h int) (*Model, *editingWakeup) {
	t.Helper()
	e := &editingWakeup{p: NewPrompts()}
	m := syncModel(t, Config{Load: constant(executing()), Wakeup: e.run, Prompts: e.p}, w, h)
	return m, e
}

// The hand-edit screen names every file of the plan with the threads
// that point at it; enter answers "done", then the diff screen shows the
// change and y commits it.
func TestHandEditThenDiffConfirmed(t *testing.T) {
	m, e := promptModel(t, 120, 40)
	pressKeys(t, m, "r")
	v := m.View()
	for _, want := range []string{"EDIT BY HAND", "fix round 2", "Files to change (3)", "internal/fetch/loop.go", ":88  P1  Retry loop never gives up on a 4xx",
		":12  P2  Jitter uses math/rand", "docs/retry.md", "no thread points here"} {
		if !strings.Contains(v, want) {
			t.Errorf("hand-edit screen lacks %q:\n%s", want, v)
		}
	}
	assertKeyBar(t, v)
	if len(e.got()) != 0 {
		t.Fatal("the hook returned before the human answered")
	}
	pressKeys(t, m, "enter")
	v = m.View()
	for _, want := range []string{"REVIEW THE DIFF", "+4 −1 lines", "stop on 4xx⟨U+200B⟩", "1 hidden or control characters", "86"} {
		if !strings.Contains(v, want) {
			t.Errorf("diff screen lacks %q:\n%s", want, v)
		}
	}
	assertKeyBar(t, v)
	pressKeys(t, m, "y")
	m.Wait()
	if got := e.got(); len(got) != 2 || got[0] != nil || got[1] != nil {
		t.Fatalf("answers %v, want done and commit", got)
	}
	if m.prompt != nil || strings.Contains(m.View(), "REVIEW THE DIFF") {
		t.Fatal("the console did not return to the loop")
	}
}

// esc abandons the hand edit; n and esc refuse the diff; closing the
// console answers ErrClosed, which is neither.
func TestPromptRefusalsAndClose(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		want []error
	}{
		{"abandon the edit", []string{"esc"}, []error{ErrAborted}},
		{"refuse the diff with n", []string{"enter", "n"}, []error{nil, ErrRefused}},
		{"refuse the diff with esc", []string{"enter", "esc"}, []error{nil, ErrRefused}},
		{"commit with enter", []string{"enter", "enter"}, []error{nil, nil}},
		{"close during the edit", nil, []error{ErrClosed}},
		{"close on the diff", []string{"enter"}, []error{nil, ErrClosed}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, e := promptModel(t, 80, 24)
			pressKeys(t, m, "r")
			pressKeys(t, m, c.keys...)
			m.Wait() // the console ended: a question left is answered ErrClosed
			got := e.got()
			if len(got) != len(c.want) {
				t.Fatalf("answers %v, want %v", got, c.want)
			}
			for i := range got {
				if !errors.Is(got[i], c.want[i]) {
					t.Fatalf("answers %v, want %v", got, c.want)
				}
			}
		})
	}
}

// Text from GitHub on the hand-edit screen is sanitized; a path is escaped.
func TestHandEditScreenIsInert(t *testing.T) {
	l := executing()
	l.Threads[0].Title = testutil.Hostile("T")
	e := &editingWakeup{p: NewPrompts()}
	m := syncModel(t, Config{Load: constant(l), Wakeup: func(ctx context.Context, _ func(status.Loop)) (status.Loop, error) {
		return l, e.p.HandEdit(ctx, []string{"internal/fetch/loop.go", "ev\u202eil.go"})
	}, Prompts: e.p}, 120, 40)
	pressKeys(t, m, "r")
	v := m.View()
	if why := testutil.Unsafe(v, true, true); why != "" {
		t.Fatalf("unsafe: %s", why)
	}
	if !strings.Contains(v, "ev⟨U+202E⟩il.go") {
		t.Errorf("the path is not escaped:\n%s", v)
	}
	m.Wait()
}

// Goldens of both screens through the real program, at both sizes.
func TestGoldenHandEdit(t *testing.T) { goldenPrompt(t, nil, "EDIT BY HAND", "Files to change") }

func TestGoldenDiffConfirm(t *testing.T) {
	goldenPrompt(t, []string{"enter"}, "REVIEW THE DIFF", "stop on 4xx")
}

func goldenPrompt(t *testing.T, keys []string, want ...string) {
	for _, sz := range sizes {
		t.Run(sizeName(sz), func(t *testing.T) {
			st := testutil.Styles()
			e := &editingWakeup{p: NewPrompts()}
			m, _ := newModel(t, Config{Load: constant(executing()), Wakeup: e.run, Prompts: e.p})
			m.st = st
			t.Cleanup(m.Wait)
			tm := teatest.NewTestModel(t, app.New(m, st), teatest.WithInitialTermSize(sz[0], sz[1]))
			waitFor(t, tm, "EXECUTING")
			tm.Send(press("r"))
			if len(keys) == 0 {
				waitFor(t, tm, want...)
			} else {
				waitFor(t, tm, "EDIT BY HAND")
				for _, k := range keys {
					tm.Send(press(k))
				}
				waitFor(t, tm, want...) // the output read so far is consumed
			}
			out := finalView(t, tm)
			assertFits(t, out, sz[0], sz[1])
			assertKeyBar(t, out)
			requireGolden(t, out)
		})
	}
}
