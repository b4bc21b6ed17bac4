// Package approval is the approval console of `gh-prloop plan` on a
// terminal: it shows the plan (repository, branches, execution posture,
// validation commands, title and body, the diff, the operations in order,
// the plan hash) and approves it only when the human types the plan hash.
//
// Approval is bound to the plan, not to a keystroke. Whitespace in what is
// typed is ignored (the hash is shown in groups, and a two-line copy brings
// a newline and indentation); everything else is exact: an empty Enter, a
// prefix, a case change or any other hash is refused with the first
// differing group named, and what was typed is kept. On a match the console
// does not record anything yet: it asks the caller to rebuild the whole
// plan from fresh observations (Recheck) and compares the rebuilt plan
// hash byte for byte with the one the human typed. Only if they are equal
// is the approval recorded (Record); otherwise the console shows which
// files and which fields of the canonical document changed (core/docdiff)
// and records nothing.
//
// What is shown is what is approved. The console hashes every file side it
// shows as git names a blob and refuses the approval unless each is the
// plan's blob (bind.go). Every line is reachable (wrapped, never cut), and
// every hidden, bidi or control character in a diff or a path is shown as
// a visible ⟨U+XXXX⟩ in the warning colour (sanitize.Escape), not
// stripped. Other strings are sanitized at render time with tui/sanitize,
// since branch names, commands and text may all come from someone else.
// Diffs are computed lazily, off the UI goroutine, so the first screen
// never waits on them.
package approval
