// Package fixer holds fixer contract v1: the JSON file the loop's edit step
// hands to a `--fixer` command (the actionable Codex threads of a
// remediation round), and the scripted fixer `gh-prloop sim fix` that
// answers it on the simulator with a plausible, deterministic change.
//
// The loop runs the fixer with the checkout as its working directory and
// the input file's absolute path as the LAST argument (an argument, not an
// environment variable: the sandbox gives commands a minimal environment).
// The file is a JSON array, one object per thread, sorted by thread_id:
//
//	[{"thread_id":"PRRT_…","path":"internal/retry/budget.go","line":17,
//	  "start_line":null,"priority":"P1","title":"…","body":"…"}]
//
// thread_id, path, title and body are required strings (thread_id and path
// non-empty; path repository-relative, slash-separated, normalized, never
// inside .git); line and start_line are positive integers or null (no
// position: the thread is outdated or file-level); priority is "P0".."P3"
// or null (no badge). Any other field, or a value of the wrong type, is an
// error naming its JSON path: a newer contract is a new version.
package fixer
