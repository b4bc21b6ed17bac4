package bootstrap_test

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/bootstrap"
	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
)

func TestRenderExact(t *testing.T) {
	got, err := bootstrap.Render("the-key", map[string]any{"b": canon.Number("1"), "a": "é<&>\u2028"})
	if err != nil {
		t.Fatal(err)
	}
	want := "Continue $github-codex-pr-loop from the exact checkpoint below. Re-fetch all external state and follow only the installed evaluator's emitted action.\n" +
		"Loop key: the-key\n" +
		"Bootstrap checkpoint JSON: {\"a\":\"é<&>\u2028\",\"b\":1}"
	if got != want {
		t.Errorf("Render:\n got %q\nwant %q", got, want)
	}
}

// A placeholder spelled inside the checkpoint (remote text can say anything)
// is data, not a placeholder: substitution happens once, over the template.
func TestRenderSubstitutesOnce(t *testing.T) {
	got, err := bootstrap.Render("the-loop-key", map[string]any{"t": policy.AutomationKeyMarker + policy.CheckpointMarker})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(got, "the-loop-key") != 1 || !strings.HasSuffix(got, `{"t":"{{AUTOMATION_KEY}}{{BOOTSTRAP_CHECKPOINT_JSON}}"}`) {
		t.Errorf("Render re-substituted inserted text: %q", got)
	}
}

func TestRenderReviewBodyReplacesOnlyThePlaceholder(t *testing.T) {
	tmpl := policy.InitialReviewTemplate(strings.Repeat("a", 32))
	sha := strings.Repeat("f", 40)
	got := bootstrap.RenderReviewBody(tmpl, sha)
	if got != "@codex review\n<!-- github-codex-pr-loop-request run="+strings.Repeat("a", 32)+" round=0 sha="+sha+" -->" {
		t.Errorf("RenderReviewBody = %q", got)
	}
}

func TestParsePRURL(t *testing.T) {
	u, why := bootstrap.ParsePRURL("https://github.com/Octo-Org/Hello.World_x/pull/1234")
	if why != "" || u.Repository != "Octo-Org/Hello.World_x" || u.Number != 1234 {
		t.Errorf("ParsePRURL = %+v, %q", u, why)
	}
	for _, bad := range []string{"", "https://github.com/", "https://github.com/a/b/pull/0", "https://github.com/a/b/pull/-1",
		"https://github.com/a/b/pull/99999999999999999999", "https://github.com/a/b/pull/1 ", "https://github.com//b/pull/1",
		"https://github.com/a/../pull/1", "https://github.com/a/b/issues/1"} {
		if _, why := bootstrap.ParsePRURL(bad); why == "" {
			t.Errorf("ParsePRURL(%q) accepted", bad)
		}
	}
}
