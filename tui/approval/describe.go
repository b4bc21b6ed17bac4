package approval

import (
	"fmt"
	"strings"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
)

// FromDocument fills a View from a validated initial document and its
// canonical bytes. Files, Title and Approver are left to the caller.
func FromDocument(doc schema.InitialDocument, canonical []byte) View {
	s, man := doc.InitialSnapshot, doc.InitialManifest
	v := View{
		Repository: s.Repository,
		Host:       s.Host,
		RemoteName: s.RemoteName,
		BaseBranch: s.BaseBranch,
		BaseSHA:    s.BaseSHA,
		HeadBranch: s.HeadBranch,
		HeadSHA:    s.CurrentHeadSHA,
		Mode:       man.Mode,
		RunID:      man.RunID,
		Posture:    Posture(s.ExecutionBoundary),
		PlanHash:   doc.InitialPlanHash,
		Document:   canonical,
	}
	if s.ExistingPRNumber != nil {
		v.ExistingPR = *s.ExistingPRNumber
	}
	for _, c := range s.Commands {
		v.Commands = append(v.Commands, c.Argv)
	}
	for _, op := range man.Operations {
		v.Operations = append(v.Operations, Operation{Name: op, Description: DescribeOperation(op, s)})
	}
	return v
}

// Posture states the execution boundary as short facts. A protection that
// is off is spelled in capitals so that it stands out without colour.
func Posture(b schema.Boundary) []string {
	g := b.Git
	off := func(disabled bool, what string) string {
		if disabled {
			return what + " off"
		}
		return what + " ON"
	}
	out := []string{"git: " + g.Profile, off(g.HooksDisabled, "hooks"), off(g.FsmonitorDisabled, "fsmonitor")}
	if g.ExternalDiffDisabled && g.TextconvDisabled {
		out = append(out, "ext-diff/textconv off")
	} else {
		out = append(out, off(g.ExternalDiffDisabled, "ext-diff"), off(g.TextconvDisabled, "textconv"))
	}
	out = append(out, off(g.SigningDisabled, "signing"))
	if g.ProtocolRestricted {
		out = append(out, "https only")
	} else {
		out = append(out, "ANY PROTOCOL")
	}
	switch {
	case g.ProtectHFSEnabled && g.ProtectNTFSEnabled:
		out = append(out, "HFS/NTFS protect")
	case g.ProtectHFSEnabled:
		out = append(out, "HFS protect", "NTFS PROTECT OFF")
	case g.ProtectNTFSEnabled:
		out = append(out, "HFS PROTECT OFF", "NTFS protect")
	default:
		out = append(out, "HFS/NTFS PROTECT OFF")
	}
	if len(g.ActiveCleanFilters) == 0 {
		out = append(out, "no clean filters")
	} else {
		out = append(out, "CLEAN FILTERS: "+strings.Join(g.ActiveCleanFilters, ", "))
	}
	out = append(out, "credentials "+g.CredentialStrategy, "isolation "+b.Isolation)
	if b.RiskAcceptanceSHA256 != nil {
		out = append(out, "RISK ACCEPTED "+short(*b.RiskAcceptanceSHA256))
	}
	return out
}

// DescribeOperation says in one line what op will do for snapshot s.
func DescribeOperation(op string, s schema.InitialSnapshot) string {
	switch op {
	case policy.OpFetchBase:
		return fmt.Sprintf("fetch %s from %s over https; its tip must still be %s", s.BaseBranch, s.RemoteName, short(s.BaseSHA))
	case policy.OpCreateBranch:
		return fmt.Sprintf("create branch %s at %s", s.HeadBranch, short(s.CurrentHeadSHA))
	case policy.OpRunValidation:
		return fmt.Sprintf("run the %s listed under validate, in order, with no network; any failure stops the run", plural(len(s.Commands), "validation command"))
	case policy.OpStageFiles:
		return fmt.Sprintf("stage exactly the %s listed under Files, each re-checked first", plural(len(s.Paths), "approved path"))
	case policy.OpCommit:
		return fmt.Sprintf("commit the staged paths on %s (hooks and signing off)", s.HeadBranch)
	case policy.OpPush:
		return fmt.Sprintf("push %s to %s over https", s.HeadBranch, s.RemoteName)
	case policy.OpCreatePR:
		return fmt.Sprintf("open a pull request %s %s %s in %s with the approved title and body", s.BaseBranch, "<-", s.HeadBranch, s.Repository)
	case policy.OpReusePR:
		n := int64(0)
		if s.ExistingPRNumber != nil {
			n = *s.ExistingPRNumber
		}
		return fmt.Sprintf("reuse pull request #%d (%s <- %s) unchanged", n, s.BaseBranch, s.HeadBranch)
	case policy.OpRequestCodexReview:
		return "post the round-0 @codex review request on the pull request's final head"
	case policy.OpBootstrapAutomation:
		return "create the paused automation that watches the review loop"
	}
	return "unknown operation"
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
