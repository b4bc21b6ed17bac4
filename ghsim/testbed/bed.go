package testbed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/gitserver"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/planner"
)

// The world every bed starts from.
const (
	Owner      = "octo-org"
	Name       = "widgets"
	Repository = Owner + "/" + Name
	BaseBranch = "main"
	HeadBranch = "feature/retry-budget"
	RemoteName = "origin"

	// GitToken is the password the git server requires (served to git by
	// the bed's credential helper); APIToken is what the GitHub client
	// sends to the simulator. Both are fake and only valid on loopback.
	GitToken = "ghs_testbedGitToken0123456789abcdefABCDEF"
	APIToken = "ghp_testbedApiToken0123456789abcdefABCDEF"
)

// OwnerAccount is the organization owning the repository in the simulator.
var OwnerAccount = ghsim.Account{Login: Owner, ID: 9100001, Type: ghsim.TypeOrganization, Name: "Octo Org"}

// Options configure New.
type Options struct {
	// Dir is an existing, preferably empty directory; everything the bed
	// creates on disk (except the git server's CA, which gitserver keeps
	// in a directory of its own) lives under it. The caller removes it.
	Dir string
	// Clock is the simulator's clock; nil means time.Now.
	Clock func() time.Time
	// Viewer is the account the GitHub client authenticates as; the zero
	// value is the simulator's default viewer.
	Viewer ghsim.Account
}

// Bed is one coherent loopback world around a local checkout.
type Bed struct {
	Sim       *ghsim.Server
	Repo      *ghsim.Repo // the simulator's octo-org/widgets
	GitServer *gitserver.Server
	Runner    *gitx.Runner     // the product's runner: trusts GitServer's CA, answers its credential prompt
	Client    *ghclient.Client // the product's client, talking to Sim
	Viewer    ghsim.Account

	// Checkout is the local clone's worktree, on HeadBranch (tracking
	// origin/HeadBranch) with uncommitted changes: see New.
	Checkout string
	// Upstream is a second clone on BaseBranch: what "someone else" pushes
	// from (PushBase).
	Upstream string
	// Host is the git server's host:port: the only host a remote URL of
	// the checkout may name, i.e. planner.Inputs.Host.
	Host string
	// CredentialScript is the absolute path of the git credential helper
	// that answers the git server's prompt (Runner's credential.helper).
	CredentialScript string

	dir   string
	clock *commitClock
}

// New starts the simulator and the git server, seeds the repository on
// both, and makes the checkout. The repository's main branch holds
// BaseFiles; HeadBranch adds one commit (FeatureFiles), pushed; then the
// checkout is left with a modified file, a deleted file and a new untracked
// file (WorktreeChanges). On error everything started is stopped.
func New(ctx context.Context, opts Options) (b *Bed, err error) {
	if opts.Dir == "" {
		return nil, errors.New("testbed: Options.Dir is required")
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("testbed: %s is not a directory", dir)
	}
	b = &Bed{dir: dir, clock: newCommitClock()}
	defer func() {
		if err != nil {
			b.Close()
			b = nil
		}
	}()

	b.Sim = ghsim.New(ghsim.Options{Clock: opts.Clock, Viewer: opts.Viewer})
	b.Sim.Start()
	b.Viewer = b.Sim.AddToken(APIToken, b.Sim.Viewer())
	b.Repo = b.Sim.AddRepo(ghsim.RepoSpec{Owner: OwnerAccount, Name: Name, DefaultBranch: BaseBranch})

	serverRoot := filepath.Join(dir, "server")
	if err := os.Mkdir(serverRoot, 0o755); err != nil {
		return nil, err
	}
	b.GitServer, err = gitserver.Start(gitserver.Options{Token: GitToken, Root: serverRoot, AfterPush: b.afterPush})
	if err != nil {
		return nil, err
	}
	b.Host = b.GitServer.Host
	if _, err := b.GitServer.CreateRepo(Owner, Name, BaseBranch); err != nil {
		return nil, err
	}
	b.Sim.SetMerger(b.merge) // merge.go: a REST merge makes a real merge commit
	credDir := filepath.Join(dir, "credentials")
	if err := os.Mkdir(credDir, 0o700); err != nil {
		return nil, err
	}
	if b.CredentialScript, err = b.GitServer.CredentialScript(credDir); err != nil {
		return nil, err
	}
	helper := gitx.HelperForScript(b.CredentialScript)
	if b.Runner, err = gitx.New(gitx.Options{CAFile: b.GitServer.CAFile, CredentialHelper: helper}); err != nil {
		return nil, err
	}
	// Host is explicit so that a developer's gh configuration (GH_HOST,
	// hosts.yml) cannot redirect the bed; the transport is what makes
	// "github.com" the simulator.
	if b.Client, err = ghclient.New(ghclient.Options{Host: "github.com", Token: APIToken, BaseTransport: b.Sim.Transport()}); err != nil {
		return nil, err
	}

	if err := b.seedUpstream(ctx); err != nil {
		return nil, err
	}
	if err := b.makeCheckout(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// Close stops the simulator and the git server. Files under Options.Dir
// are left for the caller to remove.
func (b *Bed) Close() {
	if b.GitServer != nil {
		b.GitServer.Close()
	}
	if b.Sim != nil {
		b.Sim.Close()
	}
}

// RepoURL is the https URL of the repository on the git server, the
// checkout's origin.
func (b *Bed) RepoURL() string { return b.GitServer.RepoURL(Owner, Name) }

// Deps are the planner's collaborators on this bed.
func (b *Bed) Deps() planner.Deps { return planner.Deps{Git: b.Runner, GitHub: b.Client} }

// Inputs are planner inputs for the checkout: approval-gated, default
// remote, base and head, and the bed's host.
func (b *Bed) Inputs(title, body string) planner.Inputs {
	return planner.Inputs{Dir: b.Checkout, Host: b.Host, Mode: policy.ModeApprovalGated, Title: title, Body: body}
}

func (b *Bed) seedUpstream(ctx context.Context) error {
	b.Upstream = filepath.Join(b.dir, "upstream")
	if err := os.Mkdir(b.Upstream, 0o755); err != nil {
		return err
	}
	if _, err := b.Setup(b.Upstream, "init", "-q", "-b", BaseBranch); err != nil {
		return err
	}
	if err := writeFiles(b.Upstream, BaseFiles()); err != nil {
		return err
	}
	if _, err := b.commitAll(b.Upstream, "Initial commit"); err != nil {
		return err
	}
	if _, err := b.Setup(b.Upstream, "remote", "add", RemoteName, b.RepoURL()); err != nil {
		return err
	}
	return b.push(ctx, b.Upstream, BaseBranch+":refs/heads/"+BaseBranch)
}

func (b *Bed) makeCheckout(ctx context.Context) error {
	b.Checkout = filepath.Join(b.dir, Name)
	if _, err := b.Runner.Run(ctx, b.dir, "clone", "-q", "--", b.RepoURL(), b.Checkout); err != nil {
		return err
	}
	if _, err := b.Setup(b.Checkout, "switch", "-q", "-c", HeadBranch); err != nil {
		return err
	}
	if err := writeFiles(b.Checkout, FeatureFiles()); err != nil {
		return err
	}
	if _, err := b.commitAll(b.Checkout, "Add a retry budget"); err != nil {
		return err
	}
	if err := b.push(ctx, b.Checkout, "-u", RemoteName, HeadBranch+":refs/heads/"+HeadBranch); err != nil {
		return err
	}
	return applyWorktreeChanges(b.Checkout)
}

// push runs `git push -q ARGS...` in dir through the product's runner and
// brings the simulator's branches up to date before returning: the git
// server's AfterPush hook may still be running when git has its answer.
func (b *Bed) push(ctx context.Context, dir string, args ...string) error {
	if len(args) == 1 {
		args = []string{RemoteName, args[0]}
	}
	if _, err := b.Runner.Run(ctx, dir, "push", append([]string{"-q"}, args...)...); err != nil {
		return err
	}
	return b.syncBranches()
}

// PushBase commits files (path -> content) on BaseBranch in
// Upstream and pushes it, as another contributor would. It returns the new
// base tip.
func (b *Bed) PushBase(ctx context.Context, message string, files map[string]string) (string, error) {
	if err := writeFiles(b.Upstream, files); err != nil {
		return "", err
	}
	sha, err := b.commitAll(b.Upstream, message)
	if err != nil {
		return "", err
	}
	if err := b.push(ctx, b.Upstream, BaseBranch+":refs/heads/"+BaseBranch); err != nil {
		return "", err
	}
	return sha, nil
}

// OpenPR opens a pull request from HeadBranch into BaseBranch in the
// simulator, as if someone had opened it on GitHub. Its head is the
// pushed head branch, which is also the checkout's HEAD.
func (b *Bed) OpenPR(title, body string) (*ghsim.PR, error) {
	return b.Repo.AddPR(ghsim.PullRequest{Title: title, Body: body, Head: HeadBranch, Base: BaseBranch, Author: b.Viewer})
}

// AliasURL makes the repository reachable under another spelling of its
// name (e.g. "Widgets") and returns that URL. GitHub names are
// case-insensitive, so it is the same repository, but a different remote
// URL string.
func (b *Bed) AliasURL(alias string) (string, error) {
	link := b.GitServer.RepoDir(Owner, alias)
	if err := os.Symlink(Name+".git", link); err != nil {
		return "", err
	}
	return b.GitServer.RepoURL(Owner, alias), nil
}

// Path is the absolute path of a checkout-relative slash path.
func (b *Bed) Path(rel string) string { return filepath.Join(b.Checkout, filepath.FromSlash(rel)) }

// Write writes content to a checkout-relative path, creating directories.
func (b *Bed) Write(rel, content string) error {
	return writeFiles(b.Checkout, map[string]string{rel: content})
}
