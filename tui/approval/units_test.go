package approval

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/core/docdiff"
	"github.com/prloop/gh-prloop/core/fixture"
	"github.com/prloop/gh-prloop/core/policy"
)

func render(d fileDiff) []string {
	var out []string
	for _, l := range d.lines {
		out = append(out, fmt.Sprintf("%d|%s", l.kind, l.text))
	}
	return out
}

func TestDiffFile(t *testing.T) {
	var old, nw strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&old, "l%d\n", i)
		if i == 10 {
			nw.WriteString("ten\n")
			continue
		}
		fmt.Fprintf(&nw, "l%d\n", i)
	}
	d := diffFile(File{Old: old.String(), New: nw.String()})
	want := []string{"3|@@ 6 lines unchanged @@", "0|l7", "0|l8", "0|l9", "2|l10", "1|ten", "0|l11", "0|l12", "0|l13", "3|@@ 7 lines unchanged @@"}
	if got := render(d); !reflect.DeepEqual(got, want) || d.added != 1 || d.removed != 1 {
		t.Fatalf("got %q (+%d -%d)\nwant %q", got, d.added, d.removed, want)
	}

	d = diffFile(File{Old: "a\nb", New: "a\nb\n"})
	want = []string{"0|a", "2|b", `3|\ No newline at end of file`, "1|b"}
	if got := render(d); !reflect.DeepEqual(got, want) {
		t.Fatalf("missing newline: got %q want %q", got, want)
	}

	d = diffFile(File{Status: Added, New: "x\ny\n"})
	if d.added != 2 || d.removed != 0 {
		t.Fatalf("added file: +%d -%d", d.added, d.removed)
	}
	d = diffFile(File{Binary: true, Old: "\x00", New: "\x01"})
	if !d.binary || d.added != 0 || counts(&d) != "bin" {
		t.Fatalf("binary: %+v", d)
	}
	d = diffFile(File{Old: "same\n", New: "same\n"})
	if got := render(d); !reflect.DeepEqual(got, []string{"0|same"}) {
		t.Fatalf("unchanged: %q", got)
	}
}

// Every approved line is kept: a long file is not cut (it used to stop at
// 20000 lines with "… more lines not shown").
func TestDiffFileKeepsEveryLine(t *testing.T) {
	n := 25000
	d := diffFile(File{Status: Added, New: strings.Repeat("x\n", n-1) + "last line\n"})
	if len(d.lines) != n || d.added != n || d.lines[n-1].text != "last line" || d.lines[n-1].num != n {
		t.Fatalf("%d lines, +%d, last %+v", len(d.lines), d.added, d.lines[len(d.lines)-1])
	}
}

func TestRefusalReason(t *testing.T) {
	h := strings.Repeat("ab", 32)
	wrong := []byte(h)
	wrong[20] = 'c'
	cases := map[string]string{
		h:                                      "",
		h[:8] + " " + h[8:]:                    "",
		" " + h[:32] + "\n   " + h[32:] + "\n": "",
		"":                                     "nothing was typed",
		"   ":                                  "nothing was typed",
		strings.ToUpper(h):                     "the case differs; type it as shown",
		h[:10]:                                 "only 10 of the 64 characters",
		h[1:]:                                  "group 1 of 8 differs; the plan has abababab there",
		h + "a":                                "65 characters; the hash has 64",
		string(wrong):                          "group 3 of 8 differs; the plan has abababab there",
		strings.Repeat("c", 64):                "group 1 of 8 differs; the plan has abababab there",
	}
	for typed, want := range cases {
		if got := refusalReason(typed, h); got != want {
			t.Errorf("%q: got %q, want %q", typed, got, want)
		}
		if n := len("✗ " + Refusal + ": " + want + "."); n > 80 {
			t.Errorf("%q: the message is %d columns, more than 80", want, n)
		}
	}
	if refusalReason("", "") == "" {
		t.Error("an empty plan hash must never approve")
	}
}

func TestHashGroups(t *testing.T) {
	h := strings.Repeat("0123456789abcdef", 4)
	g := hashGroups(h)
	if len(g) != 8 || strings.Join(g, "") != h || g[1] != "89abcdef" {
		t.Fatalf("%q", g)
	}
}

func TestHashInputEditing(t *testing.T) {
	st := asciiStyles()
	in := newHashInput(st.Text, st.Muted, "ph", 5)
	typ := func(k tea.KeyMsg) { in.Update(k) }
	typ(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("ab\x1b\u200bc")})
	if in.Value() != "abc" {
		t.Fatalf("controls and invisible characters must not be inserted: %q", in.Value())
	}
	typ(tea.KeyMsg{Type: tea.KeyLeft})
	typ(tea.KeyMsg{Type: tea.KeyBackspace})
	typ(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("XYZW")}) // limit 5
	if in.Value() != "aXYZc" {
		t.Fatalf("got %q", in.Value())
	}
	typ(tea.KeyMsg{Type: tea.KeyCtrlU})
	if in.Value() != "c" {
		t.Fatalf("ctrl+u: %q", in.Value())
	}
	in.Reset()
	if in.Value() != "" || !strings.Contains(in.View(20), "ph") {
		t.Fatalf("reset: %q %q", in.Value(), in.View(20))
	}
	long := newHashInput(st.Text, st.Muted, "", 256)
	long.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("a", 50) + "END")})
	if v := long.View(20); !strings.Contains(v, "END") || lipglossWidth(v) > 20 {
		t.Fatalf("a long value must show its end within the width: %q", v)
	}
}

func TestFromDocumentAndDescriptions(t *testing.T) {
	for _, opts := range []fixture.InitialOptions{{}, {ReusePR: true, NoCommands: true}, {RiskAcceptance: true}} {
		doc := fixture.InitialDocument(opts)
		d := decode(t, doc)
		v := FromDocument(d, []byte("{}"))
		var want []string
		for _, op := range fixture.InitialOperations(opts) {
			want = append(want, op.(string))
		}
		if len(v.Operations) != len(want) {
			t.Fatalf("%+v: %d operations, want %d", opts, len(v.Operations), len(want))
		}
		for i, op := range v.Operations {
			if op.Name != want[i] || op.Description == "" || op.Description == "unknown operation" {
				t.Errorf("%+v: operation %d %+v", opts, i, op)
			}
		}
		if v.PlanHash != d.InitialPlanHash || v.BaseSHA != fixture.InitialBaseSHA || v.HeadBranch != fixture.InitialHeadBranch {
			t.Errorf("%+v: view %+v", opts, v)
		}
		if opts.ReusePR && v.ExistingPR != fixture.InitialExistingPRNumber {
			t.Errorf("existing PR %d", v.ExistingPR)
		}
		if len(v.Commands) != len(d.InitialSnapshot.Commands) {
			t.Errorf("commands %v", v.Commands)
		}
		posture := strings.Join(v.Posture, " · ")
		if opts.RiskAcceptance {
			if !strings.Contains(posture, "RISK ACCEPTED") {
				t.Errorf("risk posture: %s", posture)
			}
		} else if posture != "git: sanitized-gh-https-v1 · hooks off · fsmonitor off · ext-diff/textconv off · signing off · https only · HFS/NTFS protect · no clean filters · credentials gh-cli-https · isolation no-network-minimal-env-checkout-only" {
			t.Errorf("safe posture: %s", posture)
		}
	}
	s := decode(t, fixture.InitialDocument(fixture.InitialOptions{})).InitialSnapshot
	if got := DescribeOperation(policy.OpPush, s); got != "push prloop/fix-readme-typo to origin over https" {
		t.Errorf("push: %q", got)
	}
}

func TestPostureSpellsWeakenedProtections(t *testing.T) {
	d := decode(t, fixture.InitialDocument(fixture.InitialOptions{}))
	b := d.InitialSnapshot.ExecutionBoundary
	b.Git.HooksDisabled = false
	b.Git.ProtocolRestricted = false
	b.Git.ProtectNTFSEnabled = false
	b.Git.ActiveCleanFilters = []string{"lfs"}
	p := strings.Join(Posture(b), " · ")
	for _, want := range []string{"hooks ON", "ANY PROTOCOL", "NTFS PROTECT OFF", "CLEAN FILTERS: lfs"} {
		if !strings.Contains(p, want) {
			t.Errorf("posture %q lacks %q", p, want)
		}
	}
}

func TestShellJoinAndWrap(t *testing.T) {
	if got := shellJoin([]string{"/usr/bin/go", "test", "./...", "-run", "A B", "it's", ""}); got != `/usr/bin/go test ./... -run 'A B' 'it'\''s' ''` {
		t.Errorf("shellJoin: %s", got)
	}
	got := wrapFacts([]string{"aaaa", "bbbb", "cccc"}, " · ", 11)
	if !reflect.DeepEqual(got, []string{"aaaa · bbbb", "cccc"}) {
		t.Errorf("wrapFacts: %q", got)
	}
}

func TestDriftPaneScrolls(t *testing.T) {
	v := sampleView(t)
	m := New(Config{View: v}, asciiStyles())
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	var changes []docdiff.Change
	for i := 0; i < 40; i++ {
		changes = append(changes, docdiff.Change{Path: fmt.Sprintf("/paths/%d", i), Kind: docdiff.Added, New: `"x"`})
	}
	m.state = stateChecking
	m.Update(recheckMsg{res: RecheckResult{PlanHash: strings.Repeat("0", 64)}, drift: true, changes: changes})
	if m.state != stateDrift || !strings.Contains(m.View(), "/paths/0  (added)") {
		t.Fatalf("state %d view:\n%s", m.state, m.View())
	}
	m.Update(tea.KeyMsg{Type: tea.KeyPgDown})
	if m.drift.YOffset() == 0 || strings.Contains(m.View(), "/paths/0  (added)") {
		t.Fatalf("page down did not scroll the changes:\n%s", m.View())
	}
}
