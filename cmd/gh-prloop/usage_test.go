package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/spf13/cobra"
)

// noAuth makes any credential lookup fail (exit 4 if it were reached) and
// points gh's config at an empty directory.
func noAuth(t *testing.T) {
	t.Setenv("GH_CONFIG_DIR", t.TempDir())
	for _, k := range []string{"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "GH_HOST"} {
		t.Setenv(k, "")
	}
	t.Setenv("GH_PATH", "/nonexistent/gh")
}

// guardedRoot is the production tree with every client factory replaced by
// one that fails the test: a usage error must be found before the
// credentials are read or anything is fetched.
func guardedRoot(t *testing.T, out, errOut *bytes.Buffer) *cobra.Command {
	root := newRootCmd(strings.NewReader(""), out, errOut)
	guard := func(*cobra.Command) (*ghclient.Client, error) {
		t.Error("a client was built before the usage was checked")
		return nil, ghclient.ErrNoToken
	}
	env := defaultPlanEnv()
	env.client = guard
	for _, c := range root.Commands() {
		switch c.Name() {
		case "report":
			root.RemoveCommand(c)
			root.AddCommand(newReportCmd(guard))
		case "plan":
			root.RemoveCommand(c)
			root.AddCommand(newPlanCmd(env))
		}
	}
	applyUsageRules(root)
	return root
}

// Every usage error exits 2 with gh's hint naming the command, before any
// network or auth (the guarded client factories fail the test otherwise;
// without a token, reaching auth would exit 4).
func TestUsageErrorsExit2BeforeAuth(t *testing.T) {
	noAuth(t)
	cases := []struct {
		args []string
		hint string // the command the hint names
		want string // in the message
	}{
		{[]string{"bogus"}, "gh-prloop", `unknown command "bogus"`},
		{[]string{"report", "abc"}, "gh-prloop report", "neither a pull request number nor a URL"},
		{[]string{"report", "1", "2"}, "gh-prloop report", "at most 1 arg"},
		{[]string{"report", "--watch=x", "1"}, "gh-prloop report", `invalid value "x" for --watch: expected a whole number`},
		{[]string{"report", "--watch=0", "1", "--repo", "o/r"}, "gh-prloop report", "positive number of seconds"},
		{[]string{"report", "--json", "--watch", "1", "--repo", "o/r"}, "gh-prloop report", "cannot be combined"},
		{[]string{"report", "https://github.com/o/r/pull/1", "--repo", "o/r"}, "gh-prloop report", "--repo cannot be combined"},
		{[]string{"report", "https://github.com/o/r/issues/1"}, "gh-prloop report", "is not https://HOST/OWNER/REPO/pull/NUMBER"},
		{[]string{"report", "1", "--repo", "not-a-repo"}, "gh-prloop report", "is not owner/name"},
		{[]string{"report", "--jq", ".state", "1", "--repo", "o/r"}, "gh-prloop report", "cannot use `--jq` without specifying `--json`"},
		{[]string{"report", "--template", "{{.state}}", "1", "--repo", "o/r"}, "gh-prloop report", "cannot use `--template` without specifying `--json`"},
		{[]string{"report", "--json", "--jq", ".[", "1", "--repo", "o/r"}, "gh-prloop report", "invalid --jq expression"},
		{[]string{"report", "--json", "--template", "{{", "1", "--repo", "o/r"}, "gh-prloop report", "invalid --template"},
		{[]string{"report", "--json", "-q", ".a", "-t", "x", "1", "--repo", "o/r"}, "gh-prloop report", "together"},
		{[]string{"report", "--bogus"}, "gh-prloop report", "unknown flag: --bogus"},
		{[]string{"hash", "a", "b"}, "gh-prloop hash", "at most 1 arg"},
		{[]string{"canonical", "a", "b"}, "gh-prloop canonical", "at most 1 arg"},
		{[]string{"evaluate", "--initial", "a", "b"}, "gh-prloop evaluate", "at most 1 arg"},
		{[]string{"evaluate", "a"}, "gh-prloop evaluate", "exactly one of --initial"},
		{[]string{"policy", "x"}, "gh-prloop policy", `unknown command "x"`},
		{[]string{"policy", "--jq", ".x"}, "gh-prloop policy", "without specifying `--json`"},
		{[]string{"plan", "x"}, "gh-prloop plan", `unknown command "x"`},
		{[]string{"plan", "--mode", "yolo"}, "gh-prloop plan", "--mode must be"},
		{[]string{"demo", "x"}, "gh-prloop demo", `unknown command "x"`},
		{[]string{"demo", "--json", "--watch"}, "gh-prloop demo", "cannot be combined"},
		{[]string{"demo", "plan", "x"}, "gh-prloop demo plan", `unknown command "x"`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			_, stderr, code := runPlanTestCLI(t, guardedRoot(t, &out, &errOut), &out, &errOut, c.args...)
			hint := "Run '" + c.hint + " --help' for usage.\n"
			if code != 2 || !strings.Contains(stderr, c.want) || !strings.HasSuffix(stderr, hint) {
				t.Fatalf("exit %d, stderr %q; want 2, %q and the hint %q", code, stderr, c.want, hint)
			}
			// The message is one line, then the hint.
			if lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n"); len(lines) != 2 {
				t.Errorf("want the message on one line, then the hint: %q", stderr)
			}
		})
	}
}

// Every command of the tree, including those added later, has the rule: an
// unknown flag exits 2 with that command's hint.
func TestEveryCommandRefusesAnUnknownFlagWithItsHint(t *testing.T) {
	noAuth(t)
	var out, errOut bytes.Buffer
	n := 0
	walk(guardedRoot(t, &out, &errOut), func(c *cobra.Command) {
		if c.Hidden && c.Name() != "demo" && c.Parent() != nil && c.Parent().Name() != "demo" {
			return
		}
		n++
		path := strings.Fields(c.CommandPath())[1:]
		var out, errOut bytes.Buffer
		_, stderr, code := runPlanTestCLI(t, guardedRoot(t, &out, &errOut), &out, &errOut, append(path, "--no-such-flag")...)
		if code != 2 || !strings.HasSuffix(stderr, "Run '"+c.CommandPath()+" --help' for usage.\n") {
			t.Errorf("%s --no-such-flag: exit %d, stderr %q", c.CommandPath(), code, stderr)
		}
	})
	if n < 8 {
		t.Fatalf("walked %d commands", n)
	}
	// The production tree, as main builds it: a command added after
	// applyUsageRules would lack the rule.
	walk(newRootCmd(strings.NewReader(""), &out, &errOut), func(c *cobra.Command) {
		if c.Annotations[usageRulesOn] == "" {
			t.Errorf("%s was added after applyUsageRules: it has no usage rule", c.CommandPath())
		}
	})
}

// hash, canonical and evaluate without a FILE read stdin; on a terminal
// they say so instead of waiting silently, and only on a terminal.
func TestReadingStdinFromATerminalSaysSo(t *testing.T) {
	const note = "reading the document from standard input"
	orig := readerIsTerminal
	t.Cleanup(func() { readerIsTerminal = orig })
	for _, tty := range []bool{true, false} {
		readerIsTerminal = func(io.Reader) bool { return tty }
		for _, args := range [][]string{{"hash"}, {"canonical"}, {"evaluate", "--state"}, {"hash", "-"}} {
			_, stderr, _ := run(t, `{"a":1}`, args...)
			if strings.Contains(stderr, note) != tty {
				t.Errorf("%v on a terminal=%v: stderr %q", args, tty, stderr)
			}
		}
	}
}

// The root help says what works today: every command a user can run is
// named in it, with the exit-status rule and the JSON conventions.
func TestRootHelpNamesWhatWorks(t *testing.T) {
	out, _, code := run(t, "", "--help")
	if code != 0 {
		t.Fatalf("--help exit %d", code)
	}
	var root bytes.Buffer
	walk(newRootCmd(strings.NewReader(""), &root, &root), func(c *cobra.Command) {
		if c.HasParent() && c.Parent().HasParent() {
			return // subcommands are described by their parent's help
		}
		if c.HasParent() && !regexp.MustCompile(`(?m)^ +(\w+, )*`+regexp.QuoteMeta(c.Name())+`\b`).MatchString(rootLong) {
			t.Errorf("the root help does not say what %q does", c.Name())
		}
	})
	for _, want := range []string{"What works today", "Exit status: 0 success, 1 error (or a halt), 2 usage error", "8 a plan awaits approval", "--jq EXPR and --template TMPL"} {
		if !strings.Contains(out, want) {
			t.Errorf("root help lacks %q:\n%s", want, out)
		}
	}
}

// --watch is off unless given: its help must not read "(default 30)".
func TestWatchHelpDoesNotReadAsOnByDefault(t *testing.T) {
	for _, cmd := range []string{"report", "demo"} {
		out, _, _ := run(t, "", cmd, "--help")
		i := strings.Index(out, "      --watch")
		if i < 0 {
			t.Fatalf("%s help has no --watch", cmd)
		}
		line := out[i:]
		line = line[:strings.IndexByte(line, '\n')]
		if strings.Contains(line, "(default") || !strings.Contains(line, "off unless given") {
			t.Errorf("%s: %q", cmd, line)
		}
	}
}

// An error message is one line, whatever text it quotes: a line break
// inside it (a server's or git's multi-line text) is folded.
func TestErrorMessagesAreOneLine(t *testing.T) {
	for _, err := range []error{exitWith(1, "cannot read x:\n  line two\n"), errors.New("first\nsecond")} {
		f, ferr := os.CreateTemp(t.TempDir(), "stderr")
		if ferr != nil {
			t.Fatal(ferr)
		}
		exitCode(err, f)
		f.Close()
		b, _ := os.ReadFile(f.Name())
		if strings.Count(string(b), "\n") != 1 {
			t.Errorf("%q printed as %q", err.Error(), b)
		}
	}
}
