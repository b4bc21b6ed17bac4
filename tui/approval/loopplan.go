package approval

import (
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/core/classify"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

// FromRemediation is the console's view of a fix round's plan: the threads
// to fix (path:line, priority badge and title, read from the observation
// by thread id) as the body, the approved paths with their current content,
// the commands, the operations and the hash. The Document is the manifest,
// so a drift is shown against it.
func FromRemediation(m schema.RemediationManifest, hash string, canonical []byte, mode string, round int, obs *observe.PR, files []File) View {
	v := View{
		Repository: m.Repository, Host: policy.Host, RemoteName: m.RemoteName, BaseBranch: m.BaseBranch, BaseSHA: m.BaseSHA,
		HeadBranch: m.HeadBranch, HeadSHA: m.CurrentHeadSHA, Mode: mode, RunID: m.RunID, ExistingPR: m.PRNumber,
		Title:    fmt.Sprintf("fix round %d: %d Codex threads", round, len(m.ActionableThreads)),
		Body:     requestLine(m.RequestKey, m.Responses) + "\n" + ThreadLines(m.ActionableThreads, obs),
		Posture:  Posture(m.Execution),
		PlanHash: hash, Document: canonical, Files: files, Scope: m.Paths,
	}
	for _, c := range m.Commands {
		v.Commands = append(v.Commands, c.Argv)
	}
	for _, op := range m.Operations {
		v.Operations = append(v.Operations, Operation{Name: op, Description: describeLoopOp(op, m.HeadBranch, m.RemoteName, round)})
	}
	return v
}

// FromFinalization is the console's view of a finalization plan: the
// threads to resolve, the gates and the operations.
func FromFinalization(m schema.FinalizationManifest, hash string, canonical []byte, mode string, obs *observe.PR) View {
	g := m.Gates
	v := View{
		Repository: m.Repository, Host: policy.Host, RemoteName: m.RemoteName, BaseBranch: m.BaseBranch, BaseSHA: m.BaseSHA,
		HeadBranch: m.HeadBranch, HeadSHA: m.CurrentHeadSHA, Mode: mode, RunID: m.RunID, ExistingPR: m.PRNumber,
		Title: fmt.Sprintf("finalize: resolve %d Codex threads", len(m.EligibleThreads)),
		Body: fmt.Sprintf("gates: approvals %s, branch protection %s, checks %s, mergeability %s\n%s\n%s\n%s",
			g.Approvals, g.BranchProtection, g.Checks, g.Mergeability, requestLine(m.RequestKey, m.Responses),
			prLine(m.PRIsDraft, m.NonCodexRootedThreads), ThreadLines(m.EligibleThreads, obs)),
		PlanHash: hash, Document: canonical,
	}
	for _, op := range m.Operations {
		v.Operations = append(v.Operations, Operation{Name: op, Description: describeLoopOp(op, m.HeadBranch, m.RemoteName, 0)})
	}
	return v
}

// requestLine states the request the plan answers and the Codex responses
// it binds (the manifest's request_key and responses), so that every fact
// the plan hashes is on the screen.
func requestLine(key string, rs []schema.Response) string {
	id, sha, _ := strings.Cut(key, ":")
	if len(sha) > 12 {
		sha = sha[:12]
	}
	return fmt.Sprintf("request %s on head %s · %s", id, sha, plural(len(rs), "Codex response"))
}

// prLine states the pull request's draft state and the review threads
// finalization leaves alone (non_codex_rooted_threads).
func prLine(draft bool, nonCodex int64) string {
	state := "ready for review"
	if draft {
		state = "a draft (marked ready first)"
	}
	return fmt.Sprintf("the pull request is %s · %s left open (not Codex's)", state, plural(int(nonCodex), "review thread"))
}

// ThreadLines: one line per thread (path:line, priority, title; the id
// alone where obs does not hold it); the text comes from GitHub and is
// sanitized where the console draws it, like every other field.
func ThreadLines(ts []schema.Thread, obs *observe.PR) string {
	byID := map[string]observe.Thread{}
	if obs != nil {
		for _, t := range obs.Threads {
			byID[t.ID] = t
		}
	}
	var b strings.Builder
	for _, t := range ts {
		o, ok := byID[t.ID]
		if !ok || len(o.Comments) == 0 {
			fmt.Fprintf(&b, "%s\n", t.ID)
			continue
		}
		line := int64(0)
		if o.Line != nil {
			line = *o.Line
		} else if o.OriginalLine != nil {
			line = *o.OriginalLine
		}
		// The badge markup Codex opens a finding with is read as a
		// priority, as in the watch and report consoles; the thread's
		// whole text is bound by its body_sha256 in the manifest.
		prio, title := classify.ParseFinding(o.Comments[0].Body)
		if prio == "" {
			prio = "-"
		}
		fmt.Fprintf(&b, "%s:%d  %s  %s\n", o.Path, line, prio, title)
	}
	return strings.TrimRight(b.String(), "\n")
}

func describeLoopOp(op, head, remote string, round int) string {
	switch op {
	case policy.OpEditFiles:
		return "edit the approved paths (the run's fixer, or by hand); any other change aborts the round"
	case policy.OpRunValidation:
		return "run the validation commands in the sandbox"
	case policy.OpCommit:
		return fmt.Sprintf("commit with Prloop-Run and Prloop-Round: %d trailers", round)
	case policy.OpPush:
		return fmt.Sprintf("push %s to %s over https with a lease", head, remote)
	case policy.OpReplyToCodexThreads:
		return "reply once to each thread above, with the reply marker"
	case policy.OpRequestCodexReview:
		return fmt.Sprintf("ask Codex to review the pushed head (round %d request)", round)
	case policy.OpUpdateAutomation:
		return "record the new round and request in the loop's checkpoint"
	case policy.OpMarkDraftReady:
		return "mark the pull request ready for review"
	case policy.OpResolveCodexThreads:
		return "resolve the eligible Codex threads above"
	case policy.OpDeleteAutomation:
		return "delete the loop's automation (the next, post-mutation plan does it)"
	}
	return op
}
