// Package local observes a git checkout for a write plan: the repository,
// the validated remote and its refs, HEAD, the pending change, the worktree
// status, per-path lstat records, and the execution boundary digests of
// PROTOCOL §6. Every git command goes through gitx; every digest is the
// canonical hash of a complete normalized observation defined in
// docs/protocol.md §9.
//
// Observation only reads: git runs with optional locks off, so even status
// does not refresh the index. What the safe profile cannot guarantee is
// refused with a *Refusal (a stable Code and a message for the human),
// before any command that could run repository-configured programs.
package local
