package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/spf13/cobra"
)

// The wait notice is printed where it is sanitized: a reason that quotes a
// hostile server reaches stderr inert, on one line, and says the wait once.
func TestWaitNoticeSanitizesTheReasonAndSaysTheWaitOnce(t *testing.T) {
	var errOut bytes.Buffer
	cmd := &cobra.Command{}
	cmd.SetErr(&errOut)
	waitNotice(cmd)("GitHub core\u0085\u202egnp.exe\u200b\x1b]52;c;ZXZpbA==\x07\nX rate limit reached", 2*time.Second)
	got := errOut.String()
	if !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") != 1 {
		t.Fatalf("notice is not one line: %q", got)
	}
	for _, r := range strings.TrimSuffix(got, "\n") {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || unicode.Is(unicode.Cf, r) {
			t.Fatalf("notice carries %U: %q", r, got)
		}
	}
	if want := "gh-prloop: GitHub coregnp.exe X rate limit reached; waiting 2s\n"; got != want {
		t.Fatalf("notice %q, want %q", got, want)
	}
}
