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

	// Title and Approver are optional: the PR title the human passed with
	// --title (the plan binds only its digest) and the login approving.
	Title    string
	Approver string

	// Posture is the execution boundary as short facts ("hooks off",
	// "https only", ...), shown joined on one line (Posture builds it).
	Posture []string
	// Risks are the accepted risk record in words, one line each (empty
	// under the safe isolation); typing the hash accepts them.
	Risks []string

	Commands   [][]string // validation commands, argv each, in order
	Files      []File
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
	Binary bool   // contents are not shown or counted
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
}
