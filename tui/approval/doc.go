// Package approval is the approval console of `gh-prloop plan` on a
// terminal: it shows the plan (repository, branches, execution posture,
// validation commands, the diff, the operations in order, the plan hash)
// and approves it only when the human types the full plan hash exactly.
//
// Approval is bound to the plan, not to a keystroke. An empty Enter, a
// prefix, a case change or any other hash is refused with a visible
// message and nothing happens. On a match the console does not record
// anything yet: it asks the caller to rebuild the whole plan from fresh
// observations (Recheck) and compares the rebuilt plan hash byte for byte
// with the one the human typed. Only if they are equal is the approval
// recorded (Record); otherwise the console shows which fields of the
// canonical document changed (core/docdiff) and records nothing.
//
// The view model (View) carries raw strings; the console sanitizes every
// string at render time with tui/sanitize, since branch names, paths, file
// contents and commands may all come from someone else.
package approval
