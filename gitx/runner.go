package gitx

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	ghconfig "github.com/cli/go-gh/v2/pkg/config"
)

// Options configure a Runner. The zero value is the production runner.
type Options struct {
	// GitPath is an absolute git executable; empty means exec.LookPath("git").
	GitPath string
	// CAFile is a PEM bundle git trusts instead of the system store
	// (GIT_SSL_CAINFO, with GIT_SSL_CAPATH set to its directory, so keep
	// it in a directory of its own). Only the loopback simulator needs it.
	CAFile string
	// CredentialHelper replaces gh's helper, for tests only. It is a
	// credential.helper value ("!cmd" or an absolute path) and is part of
	// the invocation digest, so a plan made with it never matches one made
	// with gh.
	CredentialHelper string
	// GHConfigDir is handed to gh as GH_CONFIG_DIR so that gh finds its
	// stored login although HOME is neutralized; empty means gh's own
	// default for the calling user. Unused when CredentialHelper is set.
	GHConfigDir string
	// PassEnv looks up the caller's environment (production: os.Getenv).
	// With gh's helper, the passedEnv variables it returns non-empty reach
	// git and gh, so a GH_TOKEN login, a proxy or the desktop keyring work
	// as they do for the API client. nil passes nothing. Unused when
	// CredentialHelper is set.
	PassEnv func(string) string
}

// passedEnv are the variables PassEnv may carry into git's environment:
// gh's token and host overrides, what gh needs to reach a desktop keyring,
// and the proxy settings both gh and git's curl honour. Nothing else
// inherited, and no GIT_* variable, ever reaches git.
var passedEnv = []string{
	"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "GH_HOST",
	"DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
	"HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy",
}

// PassedValue stands in the invocation for every passed variable's value:
// tokens and proxy URLs may hold secrets, and rotating a token must not
// change invocation_sha256 and so invalidate an approved plan.
const PassedValue = "<passed from the environment>"

// Runner runs git with the fixed sanitized invocation. It is safe for
// concurrent use.
type Runner struct {
	inv Invocation
	// env is the process environment: inv.Env with the real values of
	// passed variables. It may hold secrets, so it is never printed.
	env    []string
	sha256 string
}

// New resolves git (and gh) once and freezes the invocation.
func New(opts Options) (*Runner, error) {
	gitPath := opts.GitPath
	if gitPath == "" {
		p, err := exec.LookPath("git")
		if err != nil {
			return nil, fmt.Errorf("gitx: git not found on PATH: %w", err)
		}
		gitPath = p
	}
	gitPath, err := filepath.Abs(gitPath)
	if err != nil {
		return nil, fmt.Errorf("gitx: git path: %w", err)
	}
	gitSum, err := fileSHA256(gitPath)
	if err != nil {
		return nil, fmt.Errorf("gitx: reading git executable: %w", err)
	}

	env := map[string]string{
		"HOME":                SafeHome,
		"LANG":                "C",
		"LC_ALL":              "C",
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL":   "/dev/null",
		"GIT_TERMINAL_PROMPT": "0",
		// Observation must not write: without this, status refreshes and
		// rewrites the index, which would also change the index checksum
		// we are about to record.
		"GIT_OPTIONAL_LOCKS": "0",
	}
	pathDirs := []string{filepath.Dir(gitPath)}

	// passed holds the real values of the variables recorded in env only as
	// PassedValue; they go to the process, never into the invocation.
	var passed map[string]string
	helper := opts.CredentialHelper
	if helper == "" {
		// gh auth setup-git writes the same absolute form; a bare "gh"
		// would be looked up on PATH by the shell git spawns.
		helper = "!gh auth git-credential"
		if ghPath, err := exec.LookPath("gh"); err == nil {
			if abs, err := filepath.Abs(ghPath); err == nil {
				helper = "!" + shellQuote(abs) + " auth git-credential"
				pathDirs = append(pathDirs, filepath.Dir(abs))
			}
		}
		dir := opts.GHConfigDir
		if dir == "" {
			dir = ghconfig.ConfigDir()
		}
		env["GH_CONFIG_DIR"] = dir
		if opts.PassEnv != nil {
			passed = map[string]string{}
			for _, k := range passedEnv {
				v := opts.PassEnv(k)
				if v == "" {
					continue
				}
				if strings.ContainsRune(v, 0) {
					// Never echo the value: it may be a token.
					return nil, fmt.Errorf("gitx: %s from the environment contains a NUL byte", k)
				}
				passed[k] = v
				env[k] = PassedValue
			}
		}
	}
	pathDirs = append(pathDirs, "/usr/local/bin", "/usr/bin", "/bin")
	env["PATH"] = strings.Join(uniq(pathDirs), string(os.PathListSeparator))

	var caSum *string
	if opts.CAFile != "" {
		ca, err := filepath.Abs(opts.CAFile)
		if err != nil {
			return nil, fmt.Errorf("gitx: CA file: %w", err)
		}
		s, err := fileSHA256(ca)
		if err != nil {
			return nil, fmt.Errorf("gitx: reading CA file: %w", err)
		}
		caSum = &s
		env["GIT_SSL_CAINFO"] = ca
		// Without a CA path curl also loads the whole system store; pointing
		// it at the CA file's own directory makes that file (and its
		// neighbours) the only trust, which is stricter, and spares
		// ~150 ms of certificate parsing per connection.
		env["GIT_SSL_CAPATH"] = filepath.Dir(ca)
	}

	inv := Invocation{
		Profile:      Profile,
		GitPath:      gitPath,
		GitSHA256:    gitSum,
		Args:         fixedArgs(helper),
		DiffArgs:     slices.Clone(DiffFlags),
		DiffCommands: slices.Clone(diffCommands),
		Env:          env,
		CAFileSHA256: caSum,
	}
	for _, s := range append(slices.Clone(inv.Args), gitPath) {
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("gitx: invocation value %q is not UTF-8", s)
		}
	}
	for k, v := range env {
		if !utf8.ValidString(v) {
			return nil, fmt.Errorf("gitx: %s=%q is not UTF-8", k, v)
		}
	}
	r := &Runner{inv: inv}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		v := env[k]
		if actual, ok := passed[k]; ok {
			v = actual
		}
		r.env = append(r.env, k+"="+v)
	}
	r.sha256 = inv.SHA256()
	return r, nil
}

// Invocation returns a copy of the normalized invocation.
func (r *Runner) Invocation() Invocation {
	inv := r.inv
	inv.Args = slices.Clone(inv.Args)
	inv.DiffArgs = slices.Clone(inv.DiffArgs)
	inv.DiffCommands = slices.Clone(inv.DiffCommands)
	inv.Env = maps.Clone(r.inv.Env)
	if r.inv.CAFileSHA256 != nil {
		s := *r.inv.CAFileSHA256
		inv.CAFileSHA256 = &s
	}
	return inv
}

// InvocationSHA256 is Invocation().SHA256(), computed once.
func (r *Runner) InvocationSHA256() string { return r.sha256 }

// GitPath is the absolute git executable every command runs.
func (r *Runner) GitPath() string { return r.inv.GitPath }

// Argv is the complete argument vector (after argv[0]) for a subcommand: the
// fixed global arguments, the subcommand, the diff flags for diff-family
// commands, then args.
func (r *Runner) Argv(subcommand string, args ...string) ([]string, error) {
	if subcommand == "" || strings.HasPrefix(subcommand, "-") {
		// Global options belong to the invocation; a caller must not be
		// able to add or override one.
		return nil, fmt.Errorf("gitx: %q is not a git subcommand", subcommand)
	}
	argv := make([]string, 0, len(r.inv.Args)+len(args)+3)
	argv = append(argv, r.inv.Args...)
	argv = append(argv, subcommand)
	if slices.Contains(r.inv.DiffCommands, subcommand) {
		argv = append(argv, r.inv.DiffArgs...)
	}
	return append(argv, args...), nil
}

// Run runs git in dir and returns its stdout.
func (r *Runner) Run(ctx context.Context, dir string, subcommand string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := r.Stream(ctx, dir, nil, &out, subcommand, args...)
	return out.Bytes(), err
}

// RunInput runs git in dir with stdin and returns its stdout.
func (r *Runner) RunInput(ctx context.Context, dir string, stdin []byte, subcommand string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := r.Stream(ctx, dir, bytes.NewReader(stdin), &out, subcommand, args...)
	return out.Bytes(), err
}

// Stream runs git in dir, feeding stdin (may be nil) and copying stdout to w,
// so large outputs can be hashed without being held.
func (r *Runner) Stream(ctx context.Context, dir string, stdin io.Reader, w io.Writer, subcommand string, args ...string) error {
	argv, err := r.Argv(subcommand, args...)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, r.inv.GitPath, argv...)
	cmd.Dir = dir
	cmd.Env = r.env
	// A cancelled git's helpers (git-remote-https) may hold stdout open;
	// don't wait on them forever.
	cmd.WaitDelay = 5 * time.Second
	cmd.Stdin = stdin
	cmd.Stdout = w
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	runErr := cmd.Run()
	if runErr == nil {
		return nil
	}
	e := &Error{Subcommand: subcommand, Args: slices.Clone(args), Dir: dir, ExitCode: -1, Stderr: redact(stderr.String())}
	var exitErr *exec.ExitError
	if errors.As(runErr, &exitErr) {
		e.ExitCode = exitErr.ExitCode()
	}
	if ctx.Err() != nil {
		e.Err = ctx.Err()
	} else if exitErr == nil {
		e.Err = runErr
	}
	return e
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
