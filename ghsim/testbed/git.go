package testbed

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/gitserver"
)

// Setup runs the host git in dir for setup only (commits, branch switches,
// config edits): never for anything the product would observe over the
// network. Its environment ignores the user's and the system's git
// configuration, so a developer's settings cannot leak into a bed.
func (b *Bed) Setup(dir string, args ...string) (string, error) {
	return b.setup(dir, nil, args...)
}

func (b *Bed) setup(dir string, extraEnv []string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(setupEnv(), extraEnv...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("testbed: git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func setupEnv() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=/dev/null", "LANG=C", "LC_ALL=C",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=Mona Lisa", "GIT_AUTHOR_EMAIL=mona@example.com",
		"GIT_COMMITTER_NAME=Mona Lisa", "GIT_COMMITTER_EMAIL=mona@example.com",
	}
}

// commitAll stages everything in dir and commits it, returning the commit.
// Dates come from the bed's commit clock, so two beds built the same way
// have the same commit ids (the demo shows the same SHAs every run).
func (b *Bed) commitAll(dir, message string) (string, error) {
	if _, err := b.Setup(dir, "add", "-A"); err != nil {
		return "", err
	}
	date := b.clock.next()
	env := []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}
	if _, err := b.setup(dir, env, "commit", "-q", "--no-verify", "-m", message); err != nil {
		return "", err
	}
	return b.Setup(dir, "rev-parse", "HEAD")
}

// commitClock hands out one commit date per commit, a minute apart.
type commitClock struct {
	mu sync.Mutex
	t  time.Time
}

func newCommitClock() *commitClock {
	return &commitClock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
}

func (c *commitClock) next() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Minute)
	return c.t.Format(time.RFC3339)
}

// afterPush is the git server's hook: GitHub learns of a push at once,
// and logs each ref it changed (the simulator's push log).
func (b *Bed) afterPush(owner, repo string, updates []gitserver.RefUpdate) {
	if strings.EqualFold(owner+"/"+repo, Repository) {
		for _, u := range updates {
			b.Repo.RecordPush(u.Ref, u.Old, u.New)
		}
		_ = b.syncBranches() // push() syncs again and reports errors
	}
}

// syncBranches makes the simulator's branches those of the bare repository
// on the git server, with each tip's subject and date, so that the REST
// branch and ref endpoints answer what ls-remote shows.
func (b *Bed) syncBranches() error {
	out, err := b.Setup(b.GitServer.RepoDir(Owner, Name), "for-each-ref",
		"--format=%(objectname)%00%(refname:strip=2)%00%(committerdate:unix)%00%(contents:subject)", "refs/heads")
	if err != nil {
		return err
	}
	if out == "" {
		return errors.New("testbed: the git server's repository has no branches")
	}
	for _, line := range strings.Split(out, "\n") {
		f := strings.SplitN(line, "\x00", 4)
		if len(f) != 4 {
			return fmt.Errorf("testbed: unexpected for-each-ref line %q", line)
		}
		var unix int64
		if _, err := fmt.Sscan(f[2], &unix); err != nil {
			return fmt.Errorf("testbed: commit date %q: %v", f[2], err)
		}
		b.Repo.AddCommit(ghsim.Commit{SHA: f[0], Message: f[3], Date: time.Unix(unix, 0).UTC(), Author: "Mona Lisa"})
		b.Repo.SetBranch(f[1], f[0])
	}
	return nil
}
