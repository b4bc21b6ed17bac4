package local

import "fmt"

// Refusal codes. Callers and tests match on these; never rename one.
const (
	CodeNotWorktree     = "not-a-worktree"
	CodeNoHead          = "no-head-commit"
	CodeUnknownRemote   = "unknown-remote"
	CodeAmbiguousRemote = "ambiguous-remote"
	CodeRemoteURL       = "remote-url-not-allowed"
	CodeBaseBranch      = "base-branch-missing"
	CodeUnsafeConfig    = "unsafe-config"
	CodeProtection      = "protection-not-applied"
	CodeCleanFilter     = "clean-filter-active"
	// CodeUnconfiguredFilter: a filter attribute names a driver the
	// repository does not configure (git-lfs, configured globally).
	CodeUnconfiguredFilter = "filter-driver-not-configured"
	CodeUnmerged           = "unmerged-paths"
	CodeSubmodule          = "submodule-change"
	CodeNestedRepository   = "nested-repository"
	CodeUnsupportedFile    = "unsupported-file-type"
	CodeNonUTF8Path        = "non-utf8-path"
	CodeInvalidPath        = "invalid-path"
	CodeGitMetadataPath    = "path-inside-git-metadata"
	CodeSymlinkEscape      = "path-leaves-worktree"
	CodeSymlinkLoop        = "symlink-loop"
	// CodeHiddenCharacter: a name the plan binds (path, branch, remote,
	// PR title or body) holds a character a terminal does not show as
	// itself: a control, bidi or zero-width character.
	CodeHiddenCharacter = "hidden-character"
	CodeChanged         = "changed-during-observation"
)

// Refusal is an observation the plan must not be built from. Message is
// written for the human at the console and names the offending item.
type Refusal struct {
	Code    string
	Message string
}

func (r *Refusal) Error() string { return "refused (" + r.Code + "): " + r.Message }

func refuse(code, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Message: fmt.Sprintf(format, args...)}
}
