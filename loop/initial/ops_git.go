package initial

import (
	"context"
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/local"
	"github.com/prloop/gh-prloop/loop/step"
)

// git runs one sanitized git command in the checkout and returns its
// trimmed stdout.
func (x *exec) git(ctx context.Context, args ...string) (string, error) {
	out, err := x.d.Git.Run(ctx, x.root, args[0], args[1:]...)
	return strings.TrimSpace(string(out)), err
}

// refSHA is the commit a ref names, "" when it does not exist.
func (x *exec) refSHA(ctx context.Context, ref string) (string, error) { return x.g().RefSHA(ctx, ref) }

// remoteTip reads the head branch on the validated transport URL.
func (x *exec) remoteTip(ctx context.Context, branch string) (string, error) {
	return x.g().RemoteTip(ctx, x.transportURL, branch)
}

// g is the shared git helper on the checkout (loop/step).
func (x *exec) g() step.Git { return step.Git{Runner: x.d.Git, Root: x.root} }

// fetchBase fetches the base branch; its tip must be the approved base SHA.
// Fetching again is harmless, so a reservation without a receipt simply
// fetches again.
func (x *exec) fetchBase(ctx context.Context) (map[string]string, bool, error) {
	s := x.snap
	tracking := "refs/remotes/" + s.RemoteName + "/" + s.BaseBranch
	if err := x.fault("before:" + policy.OpFetchBase); err != nil {
		return nil, false, err
	}
	if _, err := x.git(ctx, "fetch", "--no-tags", "--no-write-fetch-head", "--", s.RemoteName, "+refs/heads/"+s.BaseBranch+":"+tracking); err != nil {
		return nil, false, err
	}
	if err := x.fault("after:" + policy.OpFetchBase); err != nil {
		return nil, false, err
	}
	tip, err := x.refSHA(ctx, tracking)
	if err != nil {
		return nil, false, err
	}
	if tip != s.BaseSHA {
		return nil, false, halt(policy.OpFetchBase, "the base branch %s is at %s, the approved base_sha is %s", s.BaseBranch, tip, s.BaseSHA)
	}
	return map[string]string{"base_sha": tip}, false, nil
}

// createBranch creates and checks out the head branch at the approved head,
// keeping the worktree's changes.
func (x *exec) createBranch(ctx context.Context) (map[string]string, bool, error) {
	s := x.snap
	cur, err := local.CurrentBranch(ctx, x.d.Git, x.root)
	if err != nil {
		return nil, false, err
	}
	tip, err := x.refSHA(ctx, "refs/heads/"+s.HeadBranch)
	if err != nil {
		return nil, false, err
	}
	receipt := map[string]string{"branch": s.HeadBranch, "sha": s.CurrentHeadSHA}
	switch {
	case cur == s.HeadBranch && tip == s.CurrentHeadSHA:
		return receipt, true, nil
	case tip != "":
		return nil, false, halt(policy.OpCreateBranch, "branch %s already exists at %s (checked out: %q)", s.HeadBranch, tip, cur)
	}
	head, err := x.refSHA(ctx, "HEAD")
	if err != nil {
		return nil, false, err
	}
	if head != s.CurrentHeadSHA {
		return nil, false, halt(policy.OpCreateBranch, "HEAD is at %s, the approved current_head_sha is %s", head, s.CurrentHeadSHA)
	}
	if err := x.fault("before:" + policy.OpCreateBranch); err != nil {
		return nil, false, err
	}
	if _, err := x.git(ctx, "switch", "-q", "-c", s.HeadBranch); err != nil {
		return nil, false, err
	}
	if err := x.fault("after:" + policy.OpCreateBranch); err != nil {
		return nil, false, err
	}
	return receipt, false, nil
}

// runValidation runs each approved command, in order, in the sandbox. The
// command is resolved again first and must be the approved definition.
func (x *exec) runValidation(ctx context.Context) (map[string]string, bool, error) {
	cmds := x.snap.Commands
	if x.d.Commands == nil {
		return nil, false, halt(policy.OpRunValidation, "no sandbox is available to run %d validation command(s); refusing to run them unconfined", len(cmds))
	}
	if len(x.job.Inputs.Validate) != len(cmds) {
		return nil, false, halt(policy.OpRunValidation, "the run records %d validation command lines for %d approved commands", len(x.job.Inputs.Validate), len(cmds))
	}
	accept, err := x.acceptedRisks()
	if err != nil {
		return nil, false, err
	}
	receipt := map[string]string{}
	if err := x.fault("before:" + policy.OpRunValidation); err != nil {
		return nil, false, err
	}
	for k, c := range cmds {
		again, err := local.ResolveCommandIn(x.root, x.job.Inputs.Validate[k])
		if err != nil {
			return nil, false, halt(policy.OpRunValidation, "command %d: %v", k+1, err)
		}
		if again.DefinitionSHA256 != c.DefinitionSHA256 || strings.Join(again.Argv, "\x00") != strings.Join(c.Argv, "\x00") {
			return nil, false, halt(policy.OpRunValidation, "command %d is no longer the approved definition", k+1)
		}
		tail := &step.LineWriter{Emit: func(line string) {
			x.emit(Event{Event: EventOutput, Op: policy.OpRunValidation, Detail: line})
		}}
		res, err := x.d.Commands.Run(ctx, c.Argv, x.root, accept, tail)
		tail.Flush()
		if err != nil {
			return nil, false, halt(policy.OpRunValidation, "command %d cannot run with the approved isolation: %v", k+1, err)
		}
		name := fmt.Sprintf("validation-%02d.log", k+1)
		if err := x.job.Run.WriteAtomic(name, res.Output); err != nil {
			return nil, false, err
		}
		if res.TimedOut || res.ExitCode != 0 {
			return nil, false, halt(policy.OpRunValidation, "command %d (%s) failed (exit %d, timed out %v); output in %s", k+1, c.Argv[0], res.ExitCode, res.TimedOut, name)
		}
		receipt[fmt.Sprintf("command_%d_output_sha256", k+1)] = canon.Hash(res.Output)
	}
	if err := x.fault("after:" + policy.OpRunValidation); err != nil {
		return nil, false, err
	}
	return receipt, false, nil
}

// stageFiles stages exactly the approved paths. The path records are
// recomputed first and must be identical; afterwards the index must differ
// from the approved head by exactly the approved change (diff_sha256).
func (x *exec) stageFiles(ctx context.Context) (map[string]string, bool, error) {
	s := x.snap
	const op = policy.OpStageFiles
	wt, err := local.Discover(ctx, x.d.Git, x.root)
	if err != nil {
		return nil, false, err
	}
	recs, err := wt.PathRecords(s.Paths)
	if err != nil {
		return nil, false, halt(op, "path records: %v", err)
	}
	for i := range recs {
		if i >= len(s.PathRecords) || recs[i] != s.PathRecords[i] {
			return nil, false, halt(op, "the path record of %q changed since approval", recs[i].Path)
		}
	}
	if len(recs) != len(s.PathRecords) {
		return nil, false, halt(op, "%d path records, %d approved", len(recs), len(s.PathRecords))
	}
	staged, err := local.StagedDiffSHA256(ctx, x.d.Git, x.root, s.CurrentHeadSHA)
	if err != nil {
		return nil, false, err
	}
	found := staged == s.DiffSHA256
	if !found {
		if err := x.fault("before:" + op); err != nil {
			return nil, false, err
		}
		args := []string{"add", "-A", "--"}
		for _, p := range s.Paths {
			args = append(args, ":(literal)"+p)
		}
		if _, err := x.git(ctx, args...); err != nil {
			return nil, false, err
		}
		if err := x.fault("after:" + op); err != nil {
			return nil, false, err
		}
		if staged, err = local.StagedDiffSHA256(ctx, x.d.Git, x.root, s.CurrentHeadSHA); err != nil {
			return nil, false, err
		}
		if staged != s.DiffSHA256 {
			return nil, false, halt(op, "the staged change hashes to %s, not the approved diff_sha256 %s; nothing is committed", staged, s.DiffSHA256)
		}
	}
	tree, err := x.git(ctx, "write-tree")
	if err != nil {
		return nil, false, err
	}
	return map[string]string{"diff_sha256": staged, "tree": tree}, found, nil
}

// commit records the staged tree as one commit on the head branch: subject
// the approved title, a Prloop-Run trailer, the author from the
// repository's user.name/user.email else the GitHub account. The branch is
// moved with a compare-and-swap from the approved head, so a second commit
// can never land on top of the first.
func (x *exec) commit(ctx context.Context) (map[string]string, bool, error) {
	s := x.snap
	const op = policy.OpCommit
	ref := "refs/heads/" + s.HeadBranch
	tip, err := x.refSHA(ctx, ref)
	if err != nil {
		return nil, false, err
	}
	if tip != s.CurrentHeadSHA {
		// Reconcile: is the tip our commit?
		if err := x.ourCommit(ctx, tip); err != nil {
			return nil, false, halt(op, "branch %s is at %s, neither the approved head %s nor this run's commit: %v", s.HeadBranch, tip, s.CurrentHeadSHA, err)
		}
		return map[string]string{"commit_sha": tip, "tree": x.stagedTree}, true, nil
	}
	tree, err := x.git(ctx, "write-tree")
	if err != nil {
		return nil, false, err
	}
	if tree != x.stagedTree {
		return nil, false, halt(op, "the index holds tree %s, the staged and checked tree was %s", tree, x.stagedTree)
	}
	name, email, err := x.identity(ctx)
	if err != nil {
		return nil, false, err
	}
	r, err := x.d.Git.WithIdentity(name, email)
	if err != nil {
		return nil, false, err
	}
	msg := x.title + "\n\n" + trailer(x.man.RunID) + "\n"
	out, err := r.RunInput(ctx, x.root, []byte(msg), "commit-tree", tree, "-p", s.CurrentHeadSHA, "-F", "-")
	if err != nil {
		return nil, false, err
	}
	sha := strings.TrimSpace(string(out))
	if err := x.fault("before:" + op); err != nil {
		return nil, false, err
	}
	if _, err := x.git(ctx, "update-ref", "-m", "prloop: "+trailer(x.man.RunID), ref, sha, s.CurrentHeadSHA); err != nil {
		return nil, false, err
	}
	if err := x.fault("after:" + op); err != nil {
		return nil, false, err
	}
	return map[string]string{"commit_sha": sha, "tree": tree, "author": name + " <" + email + ">"}, false, nil
}

// ourCommit checks that sha is this run's commit: parent the approved head,
// the staged tree, and the run trailer.
func (x *exec) ourCommit(ctx context.Context, sha string) error {
	c, err := x.g().ReadCommit(ctx, sha)
	if err != nil {
		return err
	}
	return c.CheckOurs(x.snap.CurrentHeadSHA, x.stagedTree, trailer(x.man.RunID))
}

// identity is the commit author (step.Git.Identity): the repository's own
// user.name/user.email, else the GitHub account.
func (x *exec) identity(ctx context.Context) (string, string, error) {
	login, id, err := x.viewer(ctx)
	if err != nil {
		return "", "", err
	}
	name, email := x.g().Identity(ctx, login, id)
	return name, email, nil
}

func (x *exec) viewer(ctx context.Context) (string, int64, error) {
	if x.viewerID == 0 {
		login, id, err := x.d.GitHub.Viewer(ctx)
		if err != nil {
			return "", 0, err
		}
		if id != x.snap.AuthenticatedUserID {
			return "", 0, fmt.Errorf("authenticated as %s (%d), the plan was approved for user %d", login, id, x.snap.AuthenticatedUserID)
		}
		x.viewerLogin, x.viewerID = login, id
	}
	return x.viewerLogin, x.viewerID, nil
}

// push sends the final head to the validated transport URL with a lease on
// the value the plan observed, then reads the remote head back.
func (x *exec) push(ctx context.Context) (map[string]string, bool, error) {
	s := x.snap
	const op = policy.OpPush
	ref := "refs/heads/" + s.HeadBranch
	tip, err := x.remoteTip(ctx, s.HeadBranch)
	if err != nil {
		return nil, false, err
	}
	switch tip {
	case x.finalHead:
		return map[string]string{"remote_head_sha": tip}, true, nil
	case x.lease:
	default:
		return nil, false, halt(op, "the remote %s is at %s, neither the leased %q nor the final head %s", ref, tip, x.lease, x.finalHead)
	}
	if err := x.fault("before:" + op); err != nil {
		return nil, false, err
	}
	if _, err := x.git(ctx, "push", "--porcelain", "--no-verify", "--force-with-lease="+ref+":"+x.lease, "--", x.transportURL, x.finalHead+":"+ref); err != nil {
		return nil, false, err
	}
	if err := x.fault("after:" + op); err != nil {
		return nil, false, err
	}
	if tip, err = x.remoteTip(ctx, s.HeadBranch); err != nil {
		return nil, false, err
	}
	if tip != x.finalHead {
		return nil, false, halt(op, "after the push the remote %s reads %s, not the final head %s", ref, tip, x.finalHead)
	}
	return map[string]string{"remote_head_sha": tip}, false, nil
}

func trailer(runID string) string { return "Prloop-Run: " + runID }
