package local

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/schema"
)

// ResolveCommand turns a --validate command line into a command record,
// resolving a relative executable path against the current directory.
func ResolveCommand(cmdline string) (schema.Command, error) {
	return ResolveCommandIn("", cmdline)
}

// ResolveCommandIn is ResolveCommand with relative executable paths
// ("./scripts/test.sh") resolved against dir (empty: the current directory).
//
// The line is split with shell-like quoting but no shell runs it, so shell
// syntax that would silently change meaning (pipes, redirections, &&, ;,
// $-expansion, backquotes, globs, a leading ~) is refused unless quoted.
// argv[0] becomes an absolute path (PATH lookup for a bare name), and
// definition_sha256 = canonical hash of
// {"argv": argv, "executable_sha256": sha256 of the executable's bytes}.
func ResolveCommandIn(dir, cmdline string) (schema.Command, error) {
	argv, err := SplitCommand(cmdline)
	if err != nil {
		return schema.Command{}, err
	}
	exe, err := resolveExecutable(dir, argv[0])
	if err != nil {
		return schema.Command{}, err
	}
	sum, err := executableSHA256(exe)
	if err != nil {
		return schema.Command{}, err
	}
	argv[0] = exe
	def, err := canon.HashValue(map[string]any{"argv": toAny(argv), "executable_sha256": sum})
	if err != nil {
		return schema.Command{}, err
	}
	return schema.Command{Argv: argv, DefinitionSHA256: def}, nil
}

func resolveExecutable(dir, name string) (string, error) {
	if !strings.Contains(name, "/") {
		p, err := exec.LookPath(name)
		if err != nil {
			if errors.Is(err, exec.ErrDot) {
				return "", fmt.Errorf("command %q resolves to the current directory; write ./%s", name, name)
			}
			return "", fmt.Errorf("command %q not found on PATH", name)
		}
		name = p
	}
	if !filepath.IsAbs(name) {
		base := dir
		if base == "" {
			wd, err := os.Getwd()
			if err != nil {
				return "", err
			}
			base = wd
		}
		name = filepath.Join(base, name)
	}
	return filepath.Clean(name), nil
}

func executableSHA256(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("command %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("command %s is not an executable file", path)
	}
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

// SplitCommand splits a command line into argv: whitespace separates words;
// '...' is literal; "..." allows \" \\ \$ \` and \newline escapes; a
// backslash outside quotes escapes the next character. Unquoted shell
// operators and expansions are errors, since no shell will interpret them.
func SplitCommand(line string) ([]string, error) {
	if !utf8.ValidString(line) {
		return nil, errors.New("command line is not valid UTF-8")
	}
	var argv []string
	var cur strings.Builder
	inWord := false
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				argv = append(argv, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			inWord = true
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j >= len(rs) {
				return nil, errors.New("unterminated single quote in command")
			}
			cur.WriteString(string(rs[i+1 : j]))
			i = j
		case c == '"':
			inWord = true
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) {
					switch rs[j+1] {
					case '"', '\\', '$', '`':
						j++
						cur.WriteRune(rs[j])
						continue
					case '\n':
						j++
						continue
					}
				}
				if rs[j] == '$' || rs[j] == '`' {
					return nil, fmt.Errorf("command uses %q expansion inside double quotes; no shell runs it, use single quotes", rs[j])
				}
				cur.WriteRune(rs[j])
			}
			if j >= len(rs) {
				return nil, errors.New("unterminated double quote in command")
			}
			i = j
		case c == '\\':
			if i+1 >= len(rs) {
				return nil, errors.New("command ends with a backslash")
			}
			i++
			if rs[i] != '\n' {
				inWord = true
				cur.WriteRune(rs[i])
			}
		case strings.ContainsRune("|&;<>()$`*?[]{}", c), c == '~' && !inWord, c == '#' && !inWord:
			return nil, fmt.Errorf("command uses shell syntax %q, but no shell runs it; quote it, or put the pipeline in a script", c)
		default:
			inWord = true
			cur.WriteRune(c)
		}
	}
	if inWord {
		argv = append(argv, cur.String())
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("empty command")
	}
	return argv, nil
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// CommandDefinition recomputes the definition_sha256 of an already
// resolved argv (argv[0] absolute), so an executor can check that the
// approved command still names the same executable bytes before it runs.
func CommandDefinition(argv []string) (string, error) {
	if len(argv) == 0 || !filepath.IsAbs(argv[0]) {
		return "", errors.New("command: argv[0] must be an absolute path")
	}
	sum, err := executableSHA256(argv[0])
	if err != nil {
		return "", err
	}
	return canon.HashValue(map[string]any{"argv": toAny(argv), "executable_sha256": sum})
}
