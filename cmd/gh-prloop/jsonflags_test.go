package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// --jq and --template filter the JSON a command prints, through go-gh, as
// gh does: a scalar prints raw, a template sees the decoded document.
func TestJQAndTemplateFilterTheJSON(t *testing.T) {
	t.Setenv("GH_FORCE_TTY", "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"policy", "--json", "--jq", ".max_fix_rounds"}, "5\n"},
		{[]string{"policy", "--json", "-q", ".heartbeat_rrule"}, "FREQ=MINUTELY;INTERVAL=2\n"},
		{[]string{"policy", "--json", "--jq", "{bot: .codex_bot_id}"}, "{\"bot\":199175422}\n"},
		{[]string{"policy", "--json", "--template", "rounds {{.max_fix_rounds}} rrule {{.heartbeat_rrule}}"}, "rounds 5 rrule FREQ=MINUTELY;INTERVAL=2"},
		{[]string{"policy", "--json", "-t", "{{.heartbeat_rrule}}"}, "FREQ=MINUTELY;INTERVAL=2"},
	} {
		out, stderr, code := run(t, "", c.args...)
		if code != 0 || out != c.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, stderr, c.want)
		}
	}
	// A jq error at run time (not a parse error) is exit 1, in one line.
	_, stderr, code := run(t, "", "policy", "--json", "--jq", `error("boom")`)
	if code != 1 || !strings.Contains(stderr, "--jq failed") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("runtime jq error: exit %d, stderr %q", code, stderr)
	}
}

// Every command that has --json gets --jq and --template by construction;
// plan keeps -t for --title, so its --template has no shorthand there.
func TestEveryJSONCommandHasJQAndTemplate(t *testing.T) {
	var out, errOut bytes.Buffer
	n := 0
	walk(newRootCmd(strings.NewReader(""), &out, &errOut), func(c *cobra.Command) {
		if c.Flags().Lookup("json") == nil {
			return
		}
		n++
		if c.Flags().Lookup("jq") == nil || c.Flags().Lookup("template") == nil {
			t.Errorf("%s has --json but not --jq and --template", c.CommandPath())
		}
		if c.Name() == "plan" && c.Flags().ShorthandLookup("t").Name != "title" {
			t.Errorf("plan's -t must stay --title")
		}
	})
	if n < 4 {
		t.Fatalf("only %d --json commands found", n)
	}
}
