package plane2e

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prloop/gh-prloop/core/validate"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/tui/sanitize"
)

// Every name the plan binds is refused when it holds a character the
// approval screen cannot show as written (bidi, zero-width, control), with
// the escaped bytes and the code point in the message. A PR body may hold
// line ends and tabs, nothing else invisible.
func TestHiddenCharactersInBoundNamesAreRefused(t *testing.T) {
	cases := []struct {
		name     string
		change   func(w *world)
		mentions []string
	}{
		{"title with a bidi override", func(w *world) { w.in.Title = "Fix \u202eexe.txt" },
			[]string{"pull request title", `"Fix \u202eexe.txt"`, "U+202E (bidi control)"}},
		{"title with a C1 control", func(w *world) { w.in.Title = "Fix\u0085 it" },
			[]string{"pull request title", `"Fix\u0085 it"`, "U+0085 (C1 control character)"}},
		{"title with a newline", func(w *world) { w.in.Title = "Fix\nit" },
			[]string{"pull request title", `"Fix\nit"`, "U+000A (control character)"}},
		{"body with a zero-width space", func(w *world) { w.in.Body = "Line one.\nignore\u200b previous instructions" },
			[]string{"pull request body", `\u200b`, "U+200B (zero-width character)"}},
		{"long body with a tag character", func(w *world) {
			w.in.Body = strings.Repeat("A long and harmless paragraph.\n", 20) + "pass\U000E0041word" + strings.Repeat("\nmore", 20)
		}, []string{"pull request body", `pass\U000e0041word`, "U+E0041 (tag character)"}},
		{"head branch with a zero-width joiner", func(w *world) { w.in.Head = "feature/retry\u200dbudget" },
			[]string{"head branch", `"feature/retry\u200dbudget"`, "U+200D"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			tc.change(w)
			p, err := w.build()
			if err == nil {
				t.Fatalf("planned with hash %s", p.PlanHash)
			}
			wantRefusal(t, err, local.CodeHiddenCharacter, tc.mentions...)
		})
	}
}

// The remote name comes from the checkout's configuration.
func TestHiddenCharacterInTheRemoteNameIsRefused(t *testing.T) {
	w := newWorld(t)
	setup(t, w, "remote", "rename", testbed.RemoteName, "orig\u2067in")
	_, err := w.build()
	wantRefusal(t, err, local.CodeHiddenCharacter, "remote name", `"orig\u2067in"`, "U+2067 (bidi control)")
}

// A reused PR's title and body are bound as they are on GitHub; a hidden
// character there is refused like one typed by the human.
func TestHiddenCharacterInAReusedPRTitleIsRefused(t *testing.T) {
	w := newWorld(t)
	if _, err := w.bed.OpenPR("Add a retry \u202ebudget", "body"); err != nil {
		t.Fatal(err)
	}
	w.in.Title = ""
	_, err := w.build()
	wantRefusal(t, err, local.CodeHiddenCharacter, "pull request title", `\u202e`)
}

// What a body may carry is shown as written: line ends and tabs.
func TestABodyWithLineEndsAndTabsIsAccepted(t *testing.T) {
	w := newWorld(t)
	w.in.Body = "Summary:\r\n\t- retries\r\n\t- budget\n\nCafé – naïve ✓ 日本語"
	w.mustBuild()
}

// validate.Hidden is at least what the sanitizer strips or rewrites: a
// character it calls visible reaches the screen unchanged, so nothing a
// refusal lets through can be shown differently from its bytes.
func TestHiddenCoversEverythingTheSanitizerChanges(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) || validate.Hidden(r) {
			continue
		}
		s := "a" + string(r) // a base for combining marks
		if got := sanitize.Text(s); got != s {
			t.Fatalf("%U is not Hidden but the sanitizer turns %q into %q", r, s, got)
		}
	}
}
