package local

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/gitx"
)

// Options select what Observe looks at.
type Options struct {
	// Dir is any directory inside the worktree.
	Dir string
	// Runner runs every git command; required.
	Runner *gitx.Runner
	// Remote is the remote to validate; empty means the remote the current
	// branch tracks.
	Remote string
	// BaseBranch is the PR base; empty means the remote's default branch.
	BaseBranch string
	// Host is the only host a remote URL may name; empty means github.com.
	// Tests name the loopback simulator's host:port.
	Host string
	// AcceptRisk observes under explicit-risk-acceptance-v1: protections
	// that cannot be guaranteed and active clean filters are reported in
	// the boundary instead of refused, and git status then runs those
	// filters. Only for a human who accepted exactly that.
	AcceptRisk bool
	// LocalOnly skips the remote (no ls-remote, no network): BaseBranch,
	// BaseSHA and RemoteRefsSHA256 stay empty. The wakeup loop observes
	// the checkout only for the execution boundary and the path records,
	// which are local, and reads the tips from GitHub's one GraphQL
	// observation.
	LocalOnly bool
}

// Observation is one complete, fresh observation of a checkout.
type Observation struct {
	Worktree
	RemoteName    string
	Repository    string // lowercase owner/repo of the remote
	FetchURL      string
	TransportURL  string // the push URL, bound by transport_url_sha256
	CurrentBranch string // short name; empty when HEAD is detached
	BaseBranch    string
	BaseSHA       string // the base branch tip on the remote
	HeadSHA       string

	RemoteRefsSHA256     string
	DiffSHA256           string
	WorktreeStatusSHA256 string

	// Changes is the pending change (HEAD to what `git add -A` would
	// stage), sorted by path bytes; Paths are its paths as strings.
	Changes       []Change
	Paths         []string
	PathRecords   []schema.PathRecord
	WorktreeClean bool // status reported nothing at all

	Boundary schema.Boundary
	// UnsafeConfig lists repository settings the safe profile refuses;
	// non-empty only with AcceptRisk.
	UnsafeConfig []string

	untracked [][]byte // status "?" paths, for the attributes candidates
}

// Observe observes the checkout containing opts.Dir. The order matters:
// everything that could make git run a repository-configured program is
// checked before the first command that could run it.
func Observe(ctx context.Context, opts Options) (*Observation, error) {
	r := opts.Runner
	if r == nil {
		return nil, errors.New("local: Options.Runner is required")
	}
	host := opts.Host
	if host == "" {
		host = policy.Host
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	w, err := Discover(ctx, r, opts.Dir)
	if err != nil {
		return nil, err
	}
	o := &Observation{Worktree: w}
	cfg, err := readConfig(ctx, r, w.Root)
	if err != nil {
		return nil, err
	}
	branch, err := currentBranch(ctx, r, w.Root)
	if err != nil {
		return nil, err
	}
	o.CurrentBranch = branch
	rem, err := selectRemote(cfg, opts.Remote, branch, host)
	if err != nil {
		return nil, err
	}
	o.RemoteName, o.Repository, o.FetchURL, o.TransportURL = rem.Name, rem.Repository, rem.FetchURL, rem.TransportURL

	git := applied(cfg, r)
	unsafe := cfg.unsafeReasons()
	if !opts.AcceptRisk {
		if len(unsafe) > 0 {
			return nil, refuse(CodeUnsafeConfig, "the safe profile cannot be guaranteed with this repository configuration: %s", strings.Join(unsafe, "; "))
		}
		if missing := git.missingProtections(); len(missing) > 0 {
			return nil, refuse(CodeProtection, "git does not apply these protections: %s", strings.Join(missing, ", "))
		}
	}
	o.UnsafeConfig = unsafe

	// The remote is the slowest observation; it runs beside the local ones.
	var (
		wg       sync.WaitGroup
		refs     *remoteRefs
		refsErr  error
		metadata any
		metaErr  error
		index    []indexEntry
		indexErr error
	)
	wg.Add(2)
	if !opts.LocalOnly {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if refs, refsErr = lsRemote(ctx, r, w.Root, rem.TransportURL); refsErr != nil {
				cancel()
			}
		}()
	}
	go func() {
		defer wg.Done()
		if metadata, metaErr = metadataValue(ctx, r, w.Root, w.GitDir, w.CommonDir); metaErr != nil {
			cancel()
		}
	}()
	go func() {
		defer wg.Done()
		if index, indexErr = readIndex(ctx, r, w.Root); indexErr != nil {
			cancel()
		}
	}()
	localErr := o.observeWorktree(ctx, r, cfg, &git, opts.AcceptRisk)
	if localErr != nil {
		cancel()
	}
	wg.Wait()
	if err := firstErr(localErr, refsErr, metaErr, indexErr); err != nil {
		return nil, err
	}

	if !opts.LocalOnly {
		o.RemoteRefsSHA256 = mustHash(refs.value())
		if o.BaseBranch, o.BaseSHA, err = refs.base(opts.BaseBranch); err != nil {
			return nil, err
		}
	}
	attrs, err := attributesValue(w.Root, w.CommonDir, cfg, index, o.untracked)
	if err != nil {
		return nil, err
	}

	profile, isolation := policy.SafeProfile, policy.IsolationSafe
	if opts.AcceptRisk {
		profile, isolation = policy.RiskProfile, policy.IsolationRisk
	}
	o.Boundary = schema.Boundary{
		FilesystemReadScopeSHA256:  w.ReadScopeSHA256(),
		FilesystemWriteScopeSHA256: w.WriteScopeSHA256(),
		Git: schema.GitBoundary{
			ActiveCleanFilters:        git.activeCleanFilters,
			AttributesSnapshotSHA256:  mustHash(attrs),
			ConfigSnapshotSHA256:      mustHash(cfg.snapshotValue()),
			CredentialStrategy:        policy.CredentialStrategy,
			ExternalDiffDisabled:      git.externalDiffDisabled,
			FsmonitorDisabled:         git.fsmonitorDisabled,
			GitMetadataSnapshotSHA256: mustHash(metadata),
			HooksDisabled:             git.hooksDisabled,
			InvocationSHA256:          r.InvocationSHA256(),
			Profile:                   profile,
			ProtectHFSEnabled:         git.protectHFS,
			ProtectNTFSEnabled:        git.protectNTFS,
			ProtocolRestricted:        git.protocolRestricted,
			SigningDisabled:           git.signingDisabled,
			TextconvDisabled:          git.textconvDisabled,
			TransportURLSHA256:        mustHash(map[string]any{"url": rem.TransportURL}),
		},
		Isolation:            isolation,
		RiskAcceptanceSHA256: nil,
	}
	return o, nil
}

// observeWorktree does the sequential local part: clean filters (before
// anything that could run one), HEAD, status, the pending change and the
// path records.
func (o *Observation) observeWorktree(ctx context.Context, r *gitx.Runner, cfg *config, git *appliedBoundary, acceptRisk bool) error {
	use, err := filterAttributes(ctx, r, o.Root, cfg)
	if err != nil {
		return err
	}
	filters, example := use.active, use.example
	for _, f := range append(slices.Clone(filters), use.unconfigured...) {
		if !utf8.ValidString(f) {
			return refuse(CodeCleanFilter, "filter %s has a name that is not UTF-8", quote([]byte(f)))
		}
	}
	if len(filters) > 0 && !acceptRisk {
		var parts []string
		for _, f := range filters {
			parts = append(parts, fmt.Sprintf("%q (e.g. on %s)", f, quote(example[f])))
		}
		return refuse(CodeCleanFilter, "attributes activate clean filters that would run programs: %s", strings.Join(parts, ", "))
	}
	if len(use.unconfigured) > 0 {
		// Refused under either profile: accepting the risk of running
		// programs does not make the sanitized runner read the global
		// configuration, so the file would still be committed raw.
		var parts []string
		for _, f := range use.unconfigured {
			parts = append(parts, fmt.Sprintf("%q (e.g. on %s)", f, quote(example[f])))
		}
		return refuse(CodeUnconfiguredFilter, "attributes name filter drivers this repository does not configure: %s. "+
			"gh-prloop runs git with the repository's own configuration only (never your global or system config, "+
			"where git-lfs installs its filter), so the filter would not run and the file would be committed as its raw content "+
			"instead of what your git would store (an LFS pointer). Configure the driver in the repository (git config --local) "+
			"and accept the risk of running it, or remove the attribute", strings.Join(parts, ", "))
	}
	git.activeCleanFilters = filters

	if o.HeadSHA, err = headCommit(ctx, r, o.Root); err != nil {
		return err
	}
	entries, err := readStatus(ctx, r, o.Root)
	if err != nil {
		return err
	}
	o.WorktreeStatusSHA256 = mustHash(statusValue(entries))
	o.WorktreeClean = len(entries) == 0
	for _, e := range entries {
		if e.Kind == '?' {
			o.untracked = append(o.untracked, e.Path)
		}
	}
	facts := factsFrom(cfg)
	pending, err := pendingChanges(entries, o.Root, facts)
	if err != nil {
		return err
	}
	if err := hashWorktree(ctx, r, o.Root, pending, facts); err != nil {
		return err
	}
	o.Changes = settle(pending)
	o.DiffSHA256 = mustHash(diffValue(o.HeadSHA, o.Changes))
	o.Paths = make([]string, 0, len(o.Changes))
	for _, c := range o.Changes {
		p, err := gitx.PathString(c.Path)
		if err != nil {
			return &Refusal{Code: CodeNonUTF8Path, Message: err.Error()}
		}
		if err := checkRelPath(p); err != nil {
			return err
		}
		o.Paths = append(o.Paths, p)
	}
	o.PathRecords, err = o.Worktree.PathRecords(o.Paths)
	return err
}

func currentBranch(ctx context.Context, r *gitx.Runner, root string) (string, error) {
	out, err := r.Run(ctx, root, "symbolic-ref", "-q", "HEAD")
	if err != nil {
		var ge *gitx.Error
		if errors.As(err, &ge) && ge.ExitCode == 1 && ge.Err == nil {
			return "", nil // detached
		}
		return "", err
	}
	ref := strings.TrimSuffix(string(out), "\n")
	branch, ok := strings.CutPrefix(ref, "refs/heads/")
	if !ok {
		return "", fmt.Errorf("local: HEAD points at %q, not a branch", ref)
	}
	return branch, nil
}

func headCommit(ctx context.Context, r *gitx.Runner, root string) (string, error) {
	out, err := r.Run(ctx, root, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	if err != nil {
		var ge *gitx.Error
		if errors.As(err, &ge) && ge.Err == nil {
			return "", refuse(CodeNoHead, "HEAD has no commit yet; commit once before planning")
		}
		return "", err
	}
	sha := strings.TrimSuffix(string(out), "\n")
	if !oidRE.MatchString(sha) {
		return "", fmt.Errorf("local: unexpected HEAD object id %q", sha)
	}
	return sha, nil
}

func firstErr(errs ...error) error {
	// A refusal explains itself better than the cancellation it caused
	// elsewhere, so it wins.
	for _, e := range errs {
		var rf *Refusal
		if errors.As(e, &rf) {
			return e
		}
	}
	for _, e := range errs {
		if e != nil && !errors.Is(e, context.Canceled) {
			return e
		}
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// ApplyTo sets the initial snapshot's local fields from the observation:
// base_branch, base_sha, current_head_sha, diff_sha256, execution_boundary,
// paths, path_records, remote_name, remote_refs_sha256, repository and
// worktree_status_sha256. The plan decides the rest.
func (o *Observation) ApplyTo(s *schema.InitialSnapshot) {
	s.BaseBranch = o.BaseBranch
	s.BaseSHA = o.BaseSHA
	s.CurrentHeadSHA = o.HeadSHA
	s.DiffSHA256 = o.DiffSHA256
	s.ExecutionBoundary = o.Boundary
	s.ExecutionBoundary.Git.ActiveCleanFilters = append([]string{}, o.Boundary.Git.ActiveCleanFilters...)
	s.Paths = append([]string{}, o.Paths...)
	s.PathRecords = append([]schema.PathRecord{}, o.PathRecords...)
	s.RemoteName = o.RemoteName
	s.RemoteRefsSHA256 = o.RemoteRefsSHA256
	s.Repository = o.Repository
	s.WorktreeStatusSHA256 = o.WorktreeStatusSHA256
}

// CurrentBranch is the short name of the branch checked out in the worktree
// containing dir; "" when HEAD is detached.
func CurrentBranch(ctx context.Context, r *gitx.Runner, dir string) (string, error) {
	return currentBranch(ctx, r, dir)
}
