// Package step holds what every plan executor of the loop does the same
// way: reading refs and the remote tip through the sanitized git runner,
// recognising a commit by its parent, tree and trailers, finding this
// user's comment by its hidden marker, writing a pull request or a comment
// at most once (Once), checking an approved risk record, and turning
// streamed output into lines. loop/initial, loop/remediate and
// loop/finalize use it.
package step
