package remediate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/step"
)

// runValidation runs each approved command in order in the sandbox; its
// definition (argv and executable bytes) is recomputed first. A failure
// halts with nothing committed.
func (x *exec) runValidation(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpRunValidation
	receipt := map[string]string{}
	if err := x.fault("before:" + op); err != nil {
		return nil, false, err
	}
	for k, c := range x.m.Commands {
		def, err := local.CommandDefinition(c.Argv)
		if err != nil || def != c.DefinitionSHA256 {
			return nil, false, halt(op, "command %d is no longer the approved definition (%v)", k+1, err)
		}
		tail := &step.LineWriter{Emit: func(line string) {
			x.emit(Event{Event: initial.EventOutput, Op: op, Detail: line})
		}}
		res, err := x.d.Commands.Run(ctx, c.Argv, x.job.Checkout, x.accept, tail)
		tail.Flush()
		if err != nil {
			return nil, false, halt(op, "command %d cannot run with the approved isolation: %v", k+1, err)
		}
		name := fmt.Sprintf("%s-validation-%02d.log", Phase(x.round), k+1)
		if err := x.job.Run.WriteAtomic(name, res.Output); err != nil {
			return nil, false, err
		}
		if res.TimedOut || res.ExitCode != 0 {
			return nil, false, halt(op, "command %d (%s) failed (exit %d, timed out %v); output in %s; nothing is committed", k+1, c.Argv[0], res.ExitCode, res.TimedOut, name)
		}
		receipt[fmt.Sprintf("command_%d_output_sha256", k+1)] = canon.Hash(res.Output)
	}
	if err := x.fault("after:" + op); err != nil {
		return nil, false, err
	}
	return receipt, false, nil
}

// commit stages exactly the approved paths and records one commit on the
// head branch with the Prloop-Run and Prloop-Round trailers; the branch
// moves by compare-and-swap from the plan's head, so a second commit can
// never land on the first. A branch already at such a commit is the
// receipt.
func (x *exec) commit(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpCommit
	m := x.m
	ref := "refs/heads/" + m.HeadBranch
	tip, err := x.g.RefSHA(ctx, ref)
	if err != nil {
		return nil, false, err
	}
	if tip != m.CurrentHeadSHA {
		c, err := x.g.ReadCommit(ctx, tip)
		if err == nil {
			err = c.CheckOurs(m.CurrentHeadSHA, "", x.runTrailer(), x.roundTrailer())
		}
		if err != nil {
			return nil, false, halt(op, "branch %s is at %s, neither the plan's head %s nor this round's commit: %v", m.HeadBranch, tip, m.CurrentHeadSHA, err)
		}
		return map[string]string{"commit_sha": tip, "tree": c.Tree}, true, nil
	}
	if err := x.checkPathRecords(ctx, op); err != nil {
		return nil, false, err
	}
	args := []string{"add", "-A", "--"}
	for _, p := range m.Paths {
		args = append(args, ":(literal)"+p)
	}
	if _, err := x.g.Run(ctx, args...); err != nil {
		return nil, false, err
	}
	staged, err := x.g.Run(ctx, "diff", "--cached", "--name-only", "--no-renames", "HEAD")
	if err != nil {
		return nil, false, err
	}
	var names []string
	if staged != "" {
		names = strings.Split(staged, "\n")
	}
	if out := without(names, x.approvedIn(names)); len(out) > 0 {
		return nil, false, halt(op, "the index also holds changes to %s, outside the approved paths; nothing is committed", strings.Join(out, ", "))
	}
	if len(names) == 0 {
		return nil, false, halt(op, "nothing is staged for the approved paths; nothing is committed")
	}
	tree, err := x.g.Run(ctx, "write-tree")
	if err != nil {
		return nil, false, err
	}
	login, id, err := x.viewer(ctx)
	if err != nil {
		return nil, false, err
	}
	name, email := x.g.Identity(ctx, login, id)
	r, err := x.d.Git.WithIdentity(name, email)
	if err != nil {
		return nil, false, err
	}
	out, err := r.RunInput(ctx, x.job.Checkout, []byte(x.message(names)), "commit-tree", tree, "-p", m.CurrentHeadSHA, "-F", "-")
	if err != nil {
		return nil, false, err
	}
	sha := strings.TrimSpace(string(out))
	if err := x.fault("before:" + op); err != nil {
		return nil, false, err
	}
	if _, err := x.g.Run(ctx, "update-ref", "-m", "prloop: "+x.runTrailer()+" round "+fmt.Sprint(x.round), ref, sha, m.CurrentHeadSHA); err != nil {
		return nil, false, err
	}
	if err := x.fault("after:" + op); err != nil {
		return nil, false, err
	}
	return map[string]string{"commit_sha": sha, "tree": tree, "author": name + " <" + email + ">"}, false, nil
}

// message: a subject naming the round, the fixed files, and the trailers
// reconciliation looks for (PROTOCOL §8).
func (x *exec) message(paths []string) string {
	paths = slices.Clone(paths)
	slices.Sort(paths)
	return fmt.Sprintf("Address Codex review findings (fix round %d)\n\nFiles: %s\n\n%s\n%s\n",
		x.round, strings.Join(paths, ", "), x.runTrailer(), x.roundTrailer())
}

// push sends the round's commit to the validated transport URL with a
// lease on the plan's head, then reads the remote head back. A remote
// already at the commit is the receipt; anything else (a foreign push)
// halts.
func (x *exec) push(ctx context.Context) (map[string]string, bool, error) {
	const op = policy.OpPush
	m := x.m
	ref := "refs/heads/" + m.HeadBranch
	url := x.job.TransportURL
	tip, err := x.g.RemoteTip(ctx, url, m.HeadBranch)
	if err != nil {
		return nil, false, err
	}
	switch tip {
	case x.commitSHA:
		return map[string]string{"remote_head_sha": tip}, true, nil
	case m.CurrentHeadSHA:
	default:
		return nil, false, halt(op, "the remote %s is at %s, neither the plan's head %s nor this round's commit %s", ref, tip, m.CurrentHeadSHA, x.commitSHA)
	}
	if err := x.fault("before:" + op); err != nil {
		return nil, false, err
	}
	if _, err := x.g.Run(ctx, "push", "--porcelain", "--no-verify", "--force-with-lease="+ref+":"+m.CurrentHeadSHA, "--", url, x.commitSHA+":"+ref); err != nil {
		return nil, false, err
	}
	if err := x.fault("after:" + op); err != nil {
		return nil, false, err
	}
	if tip, err = x.g.RemoteTip(ctx, url, m.HeadBranch); err != nil {
		return nil, false, err
	}
	if tip != x.commitSHA {
		return nil, false, halt(op, "after the push the remote %s reads %s, not %s", ref, tip, x.commitSHA)
	}
	return map[string]string{"remote_head_sha": tip}, false, nil
}
