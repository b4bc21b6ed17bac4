package policy

import (
	"strings"
	"testing"
)

func TestTemplatesAndKeys(t *testing.T) {
	run := "0123456789abcdef0123456789abcdef"
	if got := InitialReviewTemplate(run); got != "@codex review\n<!-- github-codex-pr-loop-request run="+run+" round=0 sha={{FINAL_HEAD_SHA}} -->" {
		t.Fatalf("initial template %q", got)
	}
	if got := FixReviewTemplate(run, 3); !strings.HasPrefix(got, "@codex review\n") || !strings.Contains(got, " round=3 ") {
		t.Fatalf("fix template %q", got)
	}
	if got := AutomationKey("octo/widgets", 42, run); got != "github-codex-pr-loop/octo/widgets/pull/42/run/"+run {
		t.Fatalf("automation key %q", got)
	}
	if got := RequestKey(1001, strings.Repeat("A", 40)); got != "1001:"+strings.Repeat("a", 40) {
		t.Fatalf("request key %q", got)
	}
	if strings.HasSuffix(AutomationPromptTemplate, "\n") || strings.Count(AutomationPromptTemplate, "\n") != 2 {
		t.Fatal("the v1 prompt template is the seed's three lines joined by \\n, no trailing newline")
	}
	for _, n := range []int64{0, 7, -12, 9223372036854775807} {
		if got, want := itoa64(n), fmtInt(n); got != want {
			t.Errorf("itoa64(%d) = %q", n, got)
		}
	}
}
