package gitx

import (
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
)

// Profile is the only profile this runner implements.
const Profile = "sanitized-gh-https-v1"

// Fixed values of the invocation, exported so observation code can verify that
// git really applied them (a boundary boolean is true only when the effective
// config shows it).
const (
	HooksPath = "/dev/null"
	SafeHome  = "/dev/null"
)

// DiffFlags are appended right after the subcommand of every diff-family
// command: a repository's diff drivers must never run programs or rewrite
// content we hash.
var DiffFlags = []string{"--no-ext-diff", "--no-textconv"}

// diffCommands are the subcommands that produce diffs and accept DiffFlags.
var diffCommands = []string{"diff", "diff-files", "diff-index", "diff-tree", "log", "show"}

// Invocation is the normalized description of how every git command runs.
// Its canonical hash is invocation_sha256. Nothing secret is ever part of it:
// credentials flow from the helper to git through a pipe, never through argv,
// and a token the user already has in the environment (Options.PassEnv) appears
// here only by name.
type Invocation struct {
	Profile string `json:"profile"`
	// GitPath is the absolute executable; GitSHA256 binds its bytes so an
	// upgraded or replaced git is a different invocation.
	GitPath   string `json:"git_path"`
	GitSHA256 string `json:"git_sha256"`
	// Args are the global arguments placed before every subcommand.
	Args []string `json:"args"`
	// DiffArgs follow the subcommand of every command in DiffCommands.
	DiffArgs     []string `json:"diff_args"`
	DiffCommands []string `json:"diff_commands"`
	// Env is the complete environment of every git process, except that a
	// variable passed from the caller's environment has the value
	// PassedValue here and its real value only in the process.
	Env map[string]string `json:"env"`
	// CAFileSHA256 binds the content of GIT_SSL_CAINFO (the loopback
	// simulator's CA); null in production, where git uses the system store.
	CAFileSHA256 *string `json:"ca_file_sha256"`
}

// SHA256 is the canonical hash of the invocation (invocation_sha256).
func (inv Invocation) SHA256() string {
	h, err := canon.HashValue(inv)
	if err != nil {
		// Every field is a plain string, so canonical encoding cannot fail
		// unless a path is not UTF-8, which New refuses.
		panic("gitx: invocation is not canonical JSON: " + err.Error())
	}
	return h
}

// fixedArgs is the -c list of the profile. The order matters for
// credential.helper: the empty value clears every helper configured before it
// (repository and URL-specific ones included, since command-line config is
// read last), and the next value installs the one helper we allow.
func fixedArgs(credentialHelper string) []string {
	pairs := []string{
		"core.hooksPath=" + HooksPath,
		"core.fsmonitor=false",
		"commit.gpgSign=false",
		"tag.gpgSign=false",
		"push.gpgSign=false",
		"protocol.allow=never",
		"protocol.https.allow=always",
		"core.protectHFS=true",
		"core.protectNTFS=true",
		"diff.external=",
		// An empty askpass stops git from running a repository-configured
		// program to ask for credentials; GIT_TERMINAL_PROMPT=0 stops the tty.
		"core.askPass=",
		"credential.helper=",
		"credential.helper=" + credentialHelper,
	}
	args := make([]string, 0, 2*len(pairs))
	for _, p := range pairs {
		args = append(args, "-c", p)
	}
	return args
}

// shellQuote quotes s for the POSIX shell git uses to run "!"-helpers.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
