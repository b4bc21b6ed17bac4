package manage

import (
	"errors"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/canon"
)

var rec = automations.Record{
	ID: "automation-" + strings.Repeat("a", 32), Key: "github-codex-pr-loop/o/r/pull/1/run/" + strings.Repeat("b", 32),
	Name: "o/r#1", Prompt: "p", PromptSHA256: canon.Hash([]byte("p")), RRule: "FREQ=MINUTELY;INTERVAL=2",
	Status: automations.StatusActive, RunID: strings.Repeat("b", 32), CreatedAt: "2026-03-01T09:00:00Z", UpdatedAt: "2026-03-01T09:00:00Z",
}

// --json prints every field of the record, under the record's own names:
// a field added to Record and forgotten here fails this test.
func TestJSONIsTheRecord(t *testing.T) {
	a, err := canon.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	b, err := canon.Marshal(JSON(rec))
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Fatalf("record %s\njson   %s", a, b)
	}
}

func TestResolveByKeyThenID(t *testing.T) {
	other := rec
	other.ID, other.Key = "automation-"+strings.Repeat("c", 32), "github-codex-pr-loop/o/r/pull/2/run/"+strings.Repeat("b", 32)
	recs := []automations.Record{rec, other}
	if got, err := Resolve(recs, other.Key); err != nil || got.ID != other.ID {
		t.Fatalf("by key: %v %v", got, err)
	}
	if got, err := Resolve(recs, rec.ID); err != nil || got.Key != rec.Key {
		t.Fatalf("by id: %v %v", got, err)
	}
	if _, err := Resolve(recs, "automation-"); !errors.Is(err, ErrNoSuchAutomation) {
		t.Fatalf("a prefix must not match: %v", err)
	}
}

// OWNER/REPO#N, as the consoles print a loop, names the one automation of
// that pull request (case aside); two are ambiguous and named; another
// pull request, or a prefix of it, is no automation.
func TestResolveByPullRequest(t *testing.T) {
	other := rec
	other.ID, other.Key = "automation-"+strings.Repeat("c", 32), "github-codex-pr-loop/o/r/pull/12/run/"+strings.Repeat("d", 32)
	recs := []automations.Record{rec, other}
	if got, err := Resolve(recs, "O/r#1"); err != nil || got.ID != rec.ID {
		t.Fatalf("o/r#1: %v %v", got, err)
	}
	if got, err := Resolve(recs, "o/r#12"); err != nil || got.ID != other.ID {
		t.Fatalf("o/r#12: %v %v", got, err)
	}
	for _, arg := range []string{"o/r#2", "o/r#", "o#1", "o/r/pull/1"} {
		if _, err := Resolve(recs, arg); !errors.Is(err, ErrNoSuchAutomation) {
			t.Errorf("%q: %v, want no automation", arg, err)
		}
	}
	again := rec
	again.ID, again.Key = "automation-"+strings.Repeat("e", 32), "github-codex-pr-loop/o/r/pull/1/run/"+strings.Repeat("f", 32)
	if _, err := Resolve(append(recs, again), "o/r#1"); err == nil || errors.Is(err, ErrNoSuchAutomation) || !strings.Contains(err.Error(), again.Key) || !strings.Contains(err.Error(), rec.Key) {
		t.Fatalf("two automations of o/r#1: %v", err)
	}
}

func TestConfirmDelete(t *testing.T) {
	paused := rec
	paused.Status, paused.Reason = automations.StatusPaused, "x"
	var out strings.Builder
	cases := []struct {
		name             string
		r                automations.Record
		yes, interactive bool
		in               string
		ok               bool
		err              error
	}{
		{"paused", paused, false, false, "", true, nil},
		{"--yes", rec, true, false, "", true, nil},
		{"no terminal", rec, false, false, "delete\n", false, ErrNeedsConfirmation},
		{"typed", rec, false, true, "delete\n", true, nil},
		{"typed without newline", rec, false, true, "delete", true, nil},
		{"declined", rec, false, true, "yes\n", false, nil},
		{"empty", rec, false, true, "", false, nil},
	}
	for _, c := range cases {
		ok, err := ConfirmDelete(c.r, c.yes, c.interactive, strings.NewReader(c.in), &out)
		if ok != c.ok || !errors.Is(err, c.err) {
			t.Errorf("%s: %v %v", c.name, ok, err)
		}
	}
}
