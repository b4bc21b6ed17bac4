package approval

// View is everything the console shows. The command fills it from the
// validated initial document (FromDocument does most of it) and adds what
// only the checkout knows: the files' old and new contents.
type View struct {
	Repository string // owner/repo
	Host       string
	RemoteName string
	BaseBranch string
	BaseSHA    string
	HeadBranch string
	HeadSHA    string // current head, before any operation runs
	Mode       string // approval-gated or autonomous
	RunID      string
	ExistingPR int64 // 0: a new pull request is opened

	// Title, Body and Approver are optional: the PR title and body the human
	// passed (the plan binds only their digests) and the login approving.
	Title    string
	Body     string
	Approver string
	// Author is who the commits the plan creates are authored by, as
	// "Name <email>" (the checkout's local identity, else the account's
	// noreply address); empty when the caller does not know it.
	Author string

	// Posture is the execution boundary as short facts ("hooks off",
	// "https only", ...), shown joined on one line (Posture builds it).
	Posture []string
	// Risks are the accepted risk record in words, one line each (empty
	// under the safe isolation); typing the hash accepts them.
	Risks []string

	Commands [][]string // validation commands, argv each, in order
	Files    []File
	// Scope are the paths a fix round may change (AddPath refuses one
	// already in it); empty for other plans.
	Scope      []string
	Operations []Operation // in execution order

	// PlanHash is the hash the human must type.
	PlanHash string
	// Document is the canonical initial document PlanHash belongs to; the
	// drift view diffs it against the rebuilt one. Without it a drift can
	// only be shown as two hashes.
	Document []byte
}

// FileStatus is how a path changes.
type FileStatus string

// File statuses. The zero value reads as modified.
const (
	Modified FileStatus = ""
	Added    FileStatus = "added"
	Deleted  FileStatus = "deleted"
)

// File is one changed path. The console diffs Old and New itself (line
// mode of github.com/sergi/go-diff), so the +/− counts are always those of
// the diff it shows.
type File struct {
	Path   string
	Status FileStatus
	Old    string // "" for an added file
	New    string // "" for a deleted file
	Binary bool   // a side has a NUL byte: contents are not shown or counted

	// OldBlob and NewBlob are the plan's object ids of the two sides (as
	// bound by diff_sha256). The console hashes Old and New itself and
	// refuses the approval when either differs: what is shown is what is
	// approved. NewStagedBlob is the id git gives New when staging it at
	// Path, set by the caller only when attribute conversions make it differ
	// from New's raw blob id.
	OldBlob, NewBlob, NewStagedBlob string
}

// Operation is one planned operation and what it will do.
type Operation struct {
	Name        string // as in the manifest, e.g. "push"
	Description string // one line, e.g. "push feature to origin over https"
}

// RecheckResult is the plan rebuilt from fresh observations.
type RecheckResult struct {
	Document []byte // canonical initial document
	PlanHash string
	// Blobs is the rebuilt plan's new-side blob id of every changed path
	// ("" for a deletion). With it the drift view names the files whose
	// content changed, not only the digest that covers them.
	Blobs map[string]string
}
