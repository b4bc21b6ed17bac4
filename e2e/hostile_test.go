package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
	"github.com/prloop/gh-prloop/tui/report"
	"github.com/prloop/gh-prloop/tui/testutil"
)

// TestHostileRemoteTextReachesTheTerminalInert puts attacks in every place a
// GitHub user controls — the PR title, a conversation comment, a review thread's
// path and body, a Codex-lookalike notice — and follows them through the real
// client, the classifier and the report renderer. Nothing that came from GitHub
// may reach the output as an escape sequence, a C1 or bidi control, or an
// invisible character; the visible words must still be there.
func TestHostileRemoteTextReachesTheTerminalInert(t *testing.T) {
	e := newEnv(t)
	h := testutil.Hostile
	long := testutil.Long(10000)
	e.pr.Update(func(p *ghsim.PullRequest) { p.Title = h("title") + long })
	human := e.sim.AddAccount(ghsim.Account{Login: "mallory", ID: 666, Type: ghsim.TypeUser})
	e.pr.AddComment(ghsim.Comment{Author: human, Body: h("comment") + long, CreatedAt: start})
	data := e.pr.Data()
	if _, err := e.pr.AddThread(ghsim.ThreadSpec{Root: ghsim.ReviewComment{
		Author: human, Body: h("threadbody") + long, Path: "src/" + h("path") + ".go",
		CommitID: data.HeadSHA, OriginalCommitID: data.HeadSHA, Line: 3, CreatedAt: start,
	}}); err != nil {
		t.Fatal(err)
	}

	r, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR)
	if err != nil {
		t.Fatal(err)
	}
	out := report.Plain(r.View())
	if why := testutil.Unsafe(out, true, false); why != "" {
		t.Fatalf("plain report: %s", why)
	}
	// go-gh already rewrites control characters in API bodies into visible
	// caret notation (as gh does), and the renderer strips what is left: the
	// sequences may show as harmless text such as "^[]8;;", never as bytes.
	plain := ansi.Strip(out)
	if plain != out {
		t.Fatalf("plain output must contain no escape sequence at all")
	}
	for _, word := range []string{"title", "mallory"} {
		if !strings.Contains(plain, word) {
			t.Errorf("sanitizing must keep the visible text %q:\n%s", word, plain)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > 2000 {
			t.Fatalf("a 10,000-character remote line must be clipped, got %d runes", len([]rune(line)))
		}
	}
}
