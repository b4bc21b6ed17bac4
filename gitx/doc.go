// Package gitx is the one way prloop runs git (PROTOCOL §6, profile
// sanitized-gh-https-v1).
//
// Every git process the product starts, observing or writing, goes through a
// Runner: an absolute git path resolved once, a fixed list of -c overrides, a
// minimal environment built from nothing (no inherited GIT_* variable, no
// system or global config; only gh's token, host, keyring and proxy
// variables may be passed through, and the invocation records those by name
// only), --no-ext-diff/--no-textconv on every diff-family command, and
// credentials only through gh's own credential helper. The whole invocation
// is a value (Invocation) whose canonical hash is the boundary's
// invocation_sha256, so an approval binds exactly how git was run.
//
// The runner never holds a token of its own: git asks the credential helper,
// which talks to gh, and a token already in the user's environment is only
// passed through to that process. Error messages carry git's stderr with URL
// userinfo and token-shaped strings redacted, as a second line of defence.
//
// Output of git's -z modes is parsed into raw byte paths (SplitZ,
// ParseStatusV2); PathString and BytesValue define how such bytes may appear in
// JSON.
package gitx
