package remediate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/fixer"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/step"
)

// worktreeState maps every path git reports as changed against HEAD or
// untracked (not ignored) to a digest of what the worktree holds there.
// Two states differ at a path exactly when its content changed between
// them, whatever was dirty before the edit began.
type worktreeState map[string]string

func (x *exec) worktree(ctx context.Context) (worktreeState, error) {
	out, err := x.g.RunRaw(ctx, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
	if err != nil {
		return nil, err
	}
	st := worktreeState{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) < 4 {
			continue
		}
		p := string(rec[3:])
		st[p] = x.digest(p)
	}
	return st, nil
}

// digest is the kind and content of the worktree entry at p.
func (x *exec) digest(p string) string {
	full := filepath.Join(x.job.Checkout, filepath.FromSlash(p))
	fi, err := os.Lstat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "absent"
	case err != nil:
		return "error:" + err.Error()
	case fi.Mode()&fs.ModeSymlink != 0:
		t, _ := os.Readlink(full)
		return "link:" + step.SHA256Hex(t)
	case !fi.Mode().IsRegular():
		return "other:" + fi.Mode().String()
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return "error:" + err.Error()
	}
	sum := sha256.Sum256(data)
	return fmt.Sprintf("file:%o:%s", fi.Mode().Perm()&0o111, hex.EncodeToString(sum[:]))
}

// changed are the paths whose content differs between before and after.
func changed(before, after worktreeState) []string {
	var out []string
	for p, d := range after {
		if before[p] != d {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (x *exec) preEditFile() string { return Phase(x.round) + "-pre-edit.json" }
func (x *exec) inputFile() string   { return Phase(x.round) + "-fixer-input.json" }

// checkPathRecords recomputes the approved paths' records; they must be
// identical (the seed: before each edit and staging operation).
func (x *exec) checkPathRecords(ctx context.Context, op string) error {
	wt, err := local.Discover(ctx, x.d.Git, x.job.Checkout)
	if err != nil {
		return err
	}
	recs, err := wt.PathRecords(x.m.Paths)
	if err != nil {
		return halt(op, "path records: %v", err)
	}
	if len(recs) != len(x.m.PathRecords) {
		return halt(op, "%d path records, %d approved", len(recs), len(x.m.PathRecords))
	}
	for i := range recs {
		if recs[i] != x.m.PathRecords[i] {
			return halt(op, "the path record of %q changed since the plan was made", recs[i].Path)
		}
	}
	return nil
}

// editFiles runs the fixer (or waits for the hand edit), then refuses any
// change outside the approved paths, leaving the worktree as it is for the
// human and committing nothing.
func (x *exec) editFiles(ctx context.Context, resumed bool) (map[string]string, bool, error) {
	const op = policy.OpEditFiles
	m := x.m
	if cur, err := local.CurrentBranch(ctx, x.d.Git, x.job.Checkout); err != nil {
		return nil, false, err
	} else if cur != m.HeadBranch {
		return nil, false, halt(op, "the checkout is on %q, not the head branch %s", cur, m.HeadBranch)
	}
	if head, err := x.g.RefSHA(ctx, "HEAD"); err != nil {
		return nil, false, err
	} else if head != m.CurrentHeadSHA {
		return nil, false, halt(op, "HEAD is at %s, the plan's current_head_sha is %s", head, m.CurrentHeadSHA)
	}
	if err := x.checkPathRecords(ctx, op); err != nil {
		return nil, false, err
	}
	before, found, err := x.preEdit(ctx)
	if err != nil {
		return nil, false, err
	}
	now, err := x.worktree(ctx)
	if err != nil {
		return nil, false, err
	}
	// Resumed after the edit ran (an approved path already changed): the
	// edit is not run again; its result is checked like a fresh one.
	done := resumed && found && len(x.approvedIn(changed(before, now))) > 0
	if !done {
		if err := x.fault("before:" + op); err != nil {
			return nil, false, err
		}
		if err := x.edit(ctx); err != nil {
			return nil, false, err
		}
		if err := x.fault("after:" + op); err != nil {
			return nil, false, err
		}
		if now, err = x.worktree(ctx); err != nil {
			return nil, false, err
		}
	}
	diffPaths := changed(before, now)
	inside := x.approvedIn(diffPaths)
	if outside := without(diffPaths, inside); len(outside) > 0 {
		return nil, false, halt(op, "the edit changed %s outside the approved paths; nothing is committed and the worktree is left as it is for you", strings.Join(outside, ", "))
	}
	if len(inside) == 0 {
		return nil, false, halt(op, "the edit changed none of the approved paths (%s); nothing is committed", strings.Join(m.Paths, ", "))
	}
	diff, err := x.diff(ctx)
	if err != nil {
		return nil, false, err
	}
	if x.job.ConfirmDiff != nil {
		if err := x.job.ConfirmDiff(ctx, diff); err != nil {
			if interrupted(ctx, err) {
				return nil, false, err
			}
			return nil, false, halt(op, "the diff was not confirmed (%v); nothing is committed and the worktree is left as it is", err)
		}
	}
	return map[string]string{"changed": strings.Join(inside, ","), "diff_sha256": step.SHA256Hex(string(diff))}, done, nil
}

// interrupted tells a console that went away (the hook returns an error
// wrapping ErrInterrupted, or the context ended) from a human who said no:
// the first leaves edit-files reserved without a receipt and the loop
// ACTIVE, so the next wakeup resumes at the edit (an edit already made is
// judged, not repeated); the second halts the round.
func interrupted(ctx context.Context, err error) bool {
	return errors.Is(err, ErrInterrupted) || ctx.Err() != nil
}

// preEdit keeps the worktree state seen before the first edit attempt, so
// that a resumed run judges the edit against the same "before".
func (x *exec) preEdit(ctx context.Context) (worktreeState, bool, error) {
	data, err := x.job.Run.Read(x.preEditFile())
	if err == nil {
		var st worktreeState
		if err := json.Unmarshal(data, &st); err != nil {
			return nil, false, fmt.Errorf("%s: %w", x.preEditFile(), err)
		}
		return st, true, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, err
	}
	st, err := x.worktree(ctx)
	if err != nil {
		return nil, false, err
	}
	data, err = json.Marshal(st)
	if err != nil {
		return nil, false, err
	}
	return st, false, x.job.Run.WriteAtomic(x.preEditFile(), data)
}

func (x *exec) approvedIn(paths []string) []string {
	var in []string
	for _, p := range paths {
		if _, ok := slices.BinarySearch(x.m.Paths, p); ok {
			in = append(in, p)
		}
	}
	return in
}

func without(all, drop []string) []string {
	var out []string
	for _, p := range all {
		if !slices.Contains(drop, p) {
			out = append(out, p)
		}
	}
	return out
}

// edit runs the fixer with the contract v1 input file, or waits for the
// human.
func (x *exec) edit(ctx context.Context) error {
	const op = policy.OpEditFiles
	if x.job.Fixer == nil {
		if err := x.job.WaitForHandEdit(ctx, x.m.Paths); err != nil {
			if interrupted(ctx, err) {
				return err
			}
			return halt(op, "the hand edit did not finish: %v", err)
		}
		return nil
	}
	threads, err := x.fixerThreads(ctx)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := fixer.Encode(&buf, threads); err != nil {
		return err
	}
	if err := x.job.Run.WriteAtomic(x.inputFile(), buf.Bytes()); err != nil {
		return err
	}
	argv := slices.Clone(x.job.Fixer)
	if !filepath.IsAbs(argv[0]) {
		exe, err := osexec.LookPath(argv[0])
		if err != nil {
			return halt(op, "the fixer %q cannot be found: %v", argv[0], err)
		}
		argv[0] = exe
	}
	argv = append(argv, filepath.Join(x.job.Run.Dir(), x.inputFile()))
	tail := &step.LineWriter{Emit: func(line string) {
		x.emit(Event{Event: initial.EventOutput, Op: op, Detail: line})
	}}
	res, err := x.d.Fixer.Run(ctx, argv, x.job.Checkout, x.accept, tail)
	tail.Flush()
	if err != nil {
		return halt(op, "the fixer cannot run in the sandbox: %v", err)
	}
	log := Phase(x.round) + "-fixer.log"
	if err := x.job.Run.WriteAtomic(log, res.Output); err != nil {
		return err
	}
	if res.TimedOut || res.ExitCode != 0 {
		return halt(op, "the fixer failed (exit %d, timed out %v); output in %s; nothing is committed", res.ExitCode, res.TimedOut, log)
	}
	return nil
}

// fixerThreads are the plan's threads as fixer contract v1 describes them,
// read fresh from GitHub: each must still be the thread the plan snapshot
// (same body, position and content version).
func (x *exec) fixerThreads(ctx context.Context) ([]fixer.Thread, error) {
	const op = policy.OpEditFiles
	obs, _, err := x.d.GitHub.ObservePR(ctx, x.repo, x.m.PRNumber)
	if err != nil {
		return nil, err
	}
	out := make([]fixer.Thread, 0, len(x.m.ActionableThreads))
	for _, want := range x.m.ActionableThreads {
		k := slices.IndexFunc(obs.Threads, func(t observe.Thread) bool { return t.ID == want.ID })
		if k < 0 {
			return nil, halt(op, "thread %s is gone", want.ID)
		}
		t := obs.Threads[k]
		if snap, ok := classify.Snapshot(t); !ok || snap != want {
			return nil, halt(op, "thread %s changed since the plan was made", want.ID)
		}
		prio, title := classify.ParseFinding(t.Comments[0].Body)
		if title == "" {
			title = "(untitled finding)"
		}
		ft := fixer.Thread{ThreadID: t.ID, Path: t.Path, Line: intPtr(t.Line), StartLine: intPtr(t.StartLine), Title: title, Body: t.Comments[0].Body}
		if ft.Line == nil {
			ft.StartLine = nil
		}
		if prio != "" {
			ft.Priority = &prio
		}
		out = append(out, ft)
	}
	return out, nil
}

func intPtr(v *int64) *int {
	if v == nil {
		return nil
	}
	n := int(*v)
	return &n
}

// diff is the change of the approved paths against HEAD, new files
// included (marked intent-to-add first; the commit stages them anyway).
func (x *exec) diff(ctx context.Context) ([]byte, error) {
	var add []string
	for _, p := range x.m.Paths {
		if _, err := os.Lstat(filepath.Join(x.job.Checkout, filepath.FromSlash(p))); err == nil {
			add = append(add, ":(literal)"+p)
		}
	}
	if len(add) > 0 {
		if _, err := x.g.Run(ctx, append([]string{"add", "-N", "--"}, add...)...); err != nil {
			return nil, err
		}
	}
	args := []string{"diff", "--no-color", "--no-ext-diff", "HEAD", "--"}
	for _, p := range x.m.Paths {
		args = append(args, ":(literal)"+p)
	}
	return x.g.RunRaw(ctx, args...)
}
