package approval

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/prloop/gh-prloop/core/docdiff"
)

const waitLimit = 5 * time.Second

func start(t *testing.T, cfg Config) *teatest.TestModel {
	t.Helper()
	tm := teatest.NewTestModel(t, New(cfg, asciiStyles()), teatest.WithInitialTermSize(100, 30))
	waitScreen(t, tm, "Plan hash")
	return tm
}

func waitScreen(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, w := range want {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(waitLimit), teatest.WithCheckInterval(5*time.Millisecond))
}

func enter(tm *teatest.TestModel) { tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) }
func esc(tm *teatest.TestModel)   { tm.Send(tea.KeyMsg{Type: tea.KeyEsc}) }

func final(t *testing.T, tm *teatest.TestModel) *Model {
	t.Helper()
	return tm.FinalModel(t, teatest.WithFinalTimeout(waitLimit)).(*Model)
}

func TestRefusedInputsNeverRecheck(t *testing.T) {
	v := sampleView(t)
	hash := v.PlanHash
	wrong := []byte(hash)
	wrong[10] = map[bool]byte{true: '0', false: '1'}[wrong[10] != '0']
	cases := []struct {
		name, typed, hint string
	}{
		{"wrong hash", string(wrong), "group 2 of 8 differs; the plan has " + hashGroups(hash)[1] + " there"},
		{"prefix", hash[:16], "only 16 of the 64 characters"},
		{"uppercase", strings.ToUpper(hash), "the case differs"},
		{"empty", "", "nothing was typed"},
		{"one case change", oneCaseChange(hash), "the case differs"},
		{"hash plus a letter", hash + "a", "65 characters; the hash has 64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.typed == hash {
				t.Fatal("the case does not differ from the hash")
			}
			var k calls
			tm := start(t, k.config(v, RecheckResult{Document: v.Document, PlanHash: hash}, "approved"))
			tm.Type(c.typed)
			enter(tm)
			waitScreen(t, tm, Refusal, c.hint)
			// A second attempt after the refusal must be possible, and the
			// first must not have been counted.
			esc(tm)
			m := final(t, tm)
			if got := m.Outcome(); got != Cancelled {
				t.Fatalf("outcome %v, want cancelled", got)
			}
			if re, rec := k.counts(); re != 0 || rec != 0 {
				t.Fatalf("Recheck called %d times, Record %d times; want 0 and 0", re, rec)
			}
		})
	}
}

func TestExactHashRechecksThenRecords(t *testing.T) {
	v := sampleView(t)
	release := make(chan struct{})
	var k calls
	var recordSawRecheck int
	cfg := Config{
		View: v,
		Recheck: func(ctx context.Context) (RecheckResult, error) {
			k.mu.Lock()
			k.recheck++
			k.mu.Unlock()
			<-release
			return RecheckResult{Document: append([]byte(nil), v.Document...), PlanHash: v.PlanHash}, nil
		},
		Record: func(context.Context) (string, error) {
			k.mu.Lock()
			defer k.mu.Unlock()
			k.record++
			recordSawRecheck = k.recheck
			return "Approved plan " + v.PlanHash + " for octo-org/hello-world", nil
		},
	}
	tm := start(t, cfg)
	tm.Type(v.PlanHash)
	enter(tm)
	waitScreen(t, tm, RecheckingMessage)
	if _, rec := k.counts(); rec != 0 {
		t.Fatal("Record ran before the re-check finished")
	}
	close(release)
	m := final(t, tm)
	r := m.Result()
	if r.Outcome != Approved || r.Statement != "Approved plan "+v.PlanHash+" for octo-org/hello-world" {
		t.Fatalf("result %+v", r)
	}
	if re, rec := k.counts(); re != 1 || rec != 1 || recordSawRecheck != 1 {
		t.Fatalf("Recheck %d, Record %d (after %d rechecks); want 1, 1, 1", re, rec, recordSawRecheck)
	}
	if r.Outcome.ExitCode() != 0 {
		t.Fatal("approved must exit 0")
	}
}

// A refusal does not lock the human out: the next, exact attempt approves.
func TestRefusalThenExactHashApproves(t *testing.T) {
	v := sampleView(t)
	var k calls
	tm := start(t, k.config(v, RecheckResult{Document: v.Document, PlanHash: v.PlanHash}, "ok"))
	tm.Type(v.PlanHash[:63])
	enter(tm)
	waitScreen(t, tm, Refusal)
	// What was typed is kept: the missing character completes it.
	tm.Type(v.PlanHash[63:])
	enter(tm)
	if m := final(t, tm); m.Outcome() != Approved {
		t.Fatalf("outcome %v", m.Outcome())
	}
	if re, rec := k.counts(); re != 1 || rec != 1 {
		t.Fatalf("Recheck %d, Record %d", re, rec)
	}
}

func TestDriftShowsChangedFieldsAndRecordsNothing(t *testing.T) {
	v := sampleView(t)
	rebuilt, data := fixtureDoc(t, func(doc map[string]any) {
		doc["initial_snapshot"].(map[string]any)["base_sha"] = strings.Repeat("3", 40)
	})
	newHash := rebuilt["initial_plan_hash"].(string)
	if newHash == v.PlanHash {
		t.Fatal("the mutation did not change the plan hash")
	}
	var k calls
	tm := start(t, k.config(v, RecheckResult{Document: data, PlanHash: newHash}, "must not happen"))
	tm.Type(v.PlanHash)
	enter(tm)
	waitScreen(t, tm, DriftHeadline, "/initial_snapshot/base_sha", strings.Repeat("3", 40))
	enter(tm)
	m := final(t, tm)
	r := m.Result()
	if r.Outcome != Drift || r.Outcome.ExitCode() != 1 || r.RebuiltHash != newHash {
		t.Fatalf("result %+v", r)
	}
	if re, rec := k.counts(); re != 1 || rec != 0 {
		t.Fatalf("Recheck %d, Record %d; want 1 and 0", re, rec)
	}
	paths := map[string]bool{}
	for _, c := range r.Changes {
		paths[c.Path] = true
	}
	for _, p := range []string{"/initial_snapshot/base_sha", "/initial_manifest/snapshot_sha256", "/initial_plan_hash"} {
		if !paths[p] {
			t.Errorf("changes lack %s: %+v", p, r.Changes)
		}
	}
	sum := DriftSummary(v.PlanHash, r)
	if !strings.Contains(sum, "/initial_snapshot/base_sha") || !strings.Contains(sum, newHash) {
		t.Errorf("summary:\n%s", sum)
	}
}

// Same hash but different bytes cannot happen with a sound rebuild; if it
// does, it is treated as drift rather than trusted.
func TestSameHashDifferentDocumentIsDrift(t *testing.T) {
	v := sampleView(t)
	other := bytes.Replace(v.Document, []byte(`"host":"github.com"`), []byte(`"host":"example.com"`), 1)
	if bytes.Equal(other, v.Document) {
		t.Fatal("replacement did not apply")
	}
	var k calls
	tm := start(t, k.config(v, RecheckResult{Document: other, PlanHash: v.PlanHash}, "no"))
	tm.Type(v.PlanHash)
	enter(tm)
	waitScreen(t, tm, DriftHeadline, "/initial_snapshot/host")
	esc(tm)
	if m := final(t, tm); m.Outcome() != Drift {
		t.Fatalf("outcome %v", m.Outcome())
	}
	if _, rec := k.counts(); rec != 0 {
		t.Fatal("Record called on drift")
	}
}

func TestEscCancels(t *testing.T) {
	var k calls
	v := sampleView(t)
	tm := start(t, k.config(v, RecheckResult{}, ""))
	tm.Type(v.PlanHash[:20])
	esc(tm)
	m := final(t, tm)
	if m.Outcome() != Cancelled || m.Outcome().ExitCode() != 2 {
		t.Fatalf("outcome %v exit %d", m.Outcome(), m.Outcome().ExitCode())
	}
	if re, rec := k.counts(); re != 0 || rec != 0 {
		t.Fatalf("Recheck %d, Record %d", re, rec)
	}
}

func TestEscDuringRecheckCancelsItsContext(t *testing.T) {
	v := sampleView(t)
	cancelled := make(chan struct{})
	var recorded bool
	cfg := Config{
		View: v,
		Recheck: func(ctx context.Context) (RecheckResult, error) {
			<-ctx.Done()
			close(cancelled)
			return RecheckResult{}, ctx.Err()
		},
		Record: func(context.Context) (string, error) { recorded = true; return "", nil },
	}
	tm := start(t, cfg)
	tm.Type(v.PlanHash)
	enter(tm)
	waitScreen(t, tm, RecheckingMessage)
	esc(tm)
	m := final(t, tm)
	select {
	case <-cancelled:
	case <-time.After(waitLimit):
		t.Fatal("the re-check's context was not cancelled")
	}
	if m.Outcome() != Cancelled || recorded {
		t.Fatalf("outcome %v, recorded %v", m.Outcome(), recorded)
	}
}

func TestRecheckAndRecordFailures(t *testing.T) {
	v := sampleView(t)
	for _, c := range []struct {
		name    string
		recheck error
		record  error
		screen  string
	}{
		{"recheck", errors.New("git fetch failed"), nil, "the plan could not be rebuilt: git fetch failed; nothing was approved."},
		{"record", nil, errors.New("disk full"), "the approval could not be recorded: disk full; nothing was approved."},
	} {
		t.Run(c.name, func(t *testing.T) {
			records := 0
			cfg := Config{
				View: v,
				Recheck: func(context.Context) (RecheckResult, error) {
					return RecheckResult{Document: v.Document, PlanHash: v.PlanHash}, c.recheck
				},
				Record: func(context.Context) (string, error) { records++; return "", c.record },
			}
			tm := start(t, cfg)
			tm.Type(v.PlanHash)
			enter(tm)
			waitScreen(t, tm, c.screen)
			enter(tm)
			r := final(t, tm).Result()
			if r.Outcome != Failed || r.Err == nil || r.Outcome.ExitCode() != 1 {
				t.Fatalf("result %+v", r)
			}
			if c.recheck != nil && records != 0 {
				t.Fatal("Record called after a failed re-check")
			}
		})
	}
}

func TestTabCyclesFocusAndScrolls(t *testing.T) {
	v := sampleView(t)
	m := New(Config{View: v}, asciiStyles())
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20}) // the diff must not fit
	settle(m)
	order := []focus{focusSummary, focusFiles, focusDiff, focusOps, focusInput}
	for _, want := range order {
		m.Update(tea.KeyMsg{Type: tea.KeyTab})
		if m.focus != want {
			t.Fatalf("focus %d, want %d", m.focus, want)
		}
	}
	m.Update(tea.KeyMsg{Type: tea.KeyShiftTab})
	if m.focus != focusOps {
		t.Fatalf("shift+tab: focus %d", m.focus)
	}
	// In the files pane j selects the next file and the diff follows.
	m.focus = focusFiles
	m.applyFocus()
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
	if m.files.sel != 1 || !strings.Contains(m.View(), "Diff · src/long.txt") {
		t.Fatalf("selection %d; view:\n%s", m.files.sel, m.View())
	}
	// In the input, j is a character, not a scroll.
	m.focus = focusInput
	m.applyFocus()
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
	if m.input.Value() != "j" || m.files.sel != 1 {
		t.Fatalf("input %q, selection %d", m.input.Value(), m.files.sel)
	}
	// The diff pane scrolls when focused.
	m.focus = focusDiff
	m.applyFocus()
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
	if m.diff.YOffset() != 1 {
		t.Fatalf("diff offset %d", m.diff.YOffset())
	}
}

func TestTooSmallAndResize(t *testing.T) {
	var k calls
	v := sampleView(t)
	m := New(k.config(v, RecheckResult{}, ""), asciiStyles())
	m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
	if s := m.View(); !strings.Contains(s, "Terminal too small: 50x12") {
		t.Fatalf("view:\n%s", s)
	}
	// Keys other than cancel do nothing while too small.
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(v.PlanHash)})
	m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if re, _ := k.counts(); re != 0 || m.input.Value() != "" {
		t.Fatal("input accepted on the too-small screen")
	}
	for _, size := range [][2]int{{MinWidth, MinHeight}, {80, 24}, {100, 30}, {200, 60}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		s := m.View()
		lines := strings.Split(s, "\n")
		if len(lines) != size[1] {
			t.Errorf("%v: %d lines", size, len(lines))
		}
		for i, l := range lines {
			if w := lipglossWidth(l); w > size[0] {
				t.Errorf("%v: line %d is %d cells: %q", size, i, w, l)
			}
		}
		if !strings.Contains(s, "Approve") {
			t.Errorf("%v: no input line:\n%s", size, s)
		}
	}
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if m.Outcome() != Cancelled || cmd == nil {
		t.Fatal("esc must cancel")
	}
}

func TestEveryRemoteStringIsSanitized(t *testing.T) {
	v := hostileView(t)
	m := New(Config{View: v}, asciiStyles())
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	screens := []string{m.View()}
	for i := 0; i < 5; i++ { // visit every pane, and the second file's diff
		m.Update(tea.KeyMsg{Type: tea.KeyTab})
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
		screens = append(screens, m.View())
	}
	m.state, m.result = stateDrift, Result{Outcome: Drift, RebuiltHash: hostile("rebuilt"), Changes: []docdiff.Change{
		{Path: "/" + hostile("path"), Kind: docdiff.Changed, Old: hostile("old"), New: hostile("new")},
	}}
	m.SetSize(100, 40)
	screens = append(screens, m.View(), DriftSummary(v.PlanHash, m.result))
	for i, s := range screens {
		if bad := unsafeText(s); bad != "" {
			t.Errorf("screen %d: %s\n%s", i, bad, s)
		}
	}
	if !strings.Contains(screens[0], "repoclick") {
		t.Errorf("the visible part of a hostile string should still show:\n%s", screens[0])
	}
}

func TestRunApprovesAndPrintsTheStatement(t *testing.T) {
	v := sampleView(t)
	var k calls
	cfg := k.config(v, RecheckResult{Document: v.Document, PlanHash: v.PlanHash}, "Approved plan for octo-org/hello-world")
	var out bytes.Buffer
	in := strings.NewReader(v.PlanHash + "\r")
	outcome, err := Run(context.Background(), Options{View: v, Recheck: cfg.Recheck, Record: cfg.Record, In: in, Out: &out, Styles: asciiStyles(), Width: 100, Height: 30})
	if err != nil || outcome != Approved {
		t.Fatalf("outcome %v, err %v", outcome, err)
	}
	if !strings.HasSuffix(out.String(), "Approved plan for octo-org/hello-world\n") {
		t.Fatalf("output ends %q", tail(out.String()))
	}
}

func TestRunCancelsOnCtrlC(t *testing.T) {
	v := sampleView(t)
	var k calls
	cfg := k.config(v, RecheckResult{}, "")
	var errOut bytes.Buffer
	outcome, err := Run(context.Background(), Options{View: v, Recheck: cfg.Recheck, Record: cfg.Record,
		In: strings.NewReader(v.PlanHash[:5] + "\x03"), Out: io.Discard, Err: &errOut, Styles: asciiStyles(), Width: 100, Height: 30})
	if err != nil || outcome != Cancelled {
		t.Fatalf("outcome %v, err %v", outcome, err)
	}
	// The alternate screen is gone: say what happened.
	if errOut.String() != "cancelled; nothing was approved\n" {
		t.Fatalf("stderr %q", errOut.String())
	}
	if re, rec := k.counts(); re != 0 || rec != 0 {
		t.Fatalf("Recheck %d, Record %d", re, rec)
	}
}

func tail(s string) string {
	if len(s) > 200 {
		return s[len(s)-200:]
	}
	return s
}

// oneCaseChange upper-cases the last letter of hash.
func oneCaseChange(hash string) string {
	b := []byte(hash)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] >= 'a' && b[i] <= 'f' {
			b[i] -= 'a' - 'A'
			break
		}
	}
	return string(b)
}
