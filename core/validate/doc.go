// Package validate holds the `evaluate --initial` rules: everything the seed's
// "Initial snapshot and manifest" section and PROTOCOL §3 require of an
// initial document beyond exact decoding (which core/schema does).
//
// Every rule records its problem and validation carries on, so one run lists
// every reason a document is rejected. Rules that read a field run only when
// core/schema decoded that field without a problem: a missing or mistyped
// field is reported once, at its path, not again as a cascade of
// zero-value comparisons.
//
// Decisions the seed leaves open, fixed here:
//   - Digests of text (review_request_body_template_sha256,
//     automation_prompt_template_sha256, pr_title_sha256, pr_body_sha256) are
//     the lowercase SHA-256 of the text's UTF-8 bytes as stored, not of its
//     JSON encoding. The PR title and body are not part of the document, so
//     their digests are only format-checked here; whoever holds the text
//     compares them (for a reused PR: its current unchanged title and body).
//   - Paths are compared byte-exact, as git reports them. They are neither
//     NFC-normalized nor required to be NFC: normalizing would let the
//     approved string differ from what git stages, and two spellings of one
//     name are two different paths to git. Sorting is by code point, which
//     for valid UTF-8 is Go's byte order and Python's str order alike.
//   - A path may not contain control characters (C0 or DEL), because a human
//     approves paths on a terminal and such a path can disguise itself, and
//     may not have a ".git" segment (any case), which would contradict
//     outside_git_metadata.
//   - commit_required implies push_required and at least one path: a fresh
//     commit that is not pushed can never satisfy the receipt's
//     remote_head_sha == final_head_sha, and git makes no commit from no path.
//   - credential_strategy is gh-cli-https in both profiles: it is the only
//     credential path the product has (PROTOCOL §6).
package validate
