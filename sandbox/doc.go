// Package sandbox runs validation commands (and later the fixer) the way the
// plan's execution boundary promises: argv exec with no shell, a minimal
// environment, the checkout as working directory, no network, writes
// confined to the checkout and a private temporary directory, a timeout
// that kills everything the command started, and bounded captured output.
//
// On Linux the isolation is a new user, network and PID namespace (the
// network namespace has only a loopback interface that is down, so every
// connect fails; killing the namespace's first process kills all of it)
// and a Landlock ruleset (ABI 3 or later, so truncation is covered too)
// that leaves the whole file system readable and executable but writable
// only under the allowed directories. Landlock must be applied by the
// process that then execs the command, so Run re-executes the current
// program as a small helper: Main, called first thing in main() and in
// TestMain, recognizes the helper invocation, applies the ruleset and execs.
//
// Probe tries each guarantee for real (a helper writes outside its allowed
// directories and dials a loopback listener) and never assumes one. Run
// refuses with an error, never a silent downgrade, when a guarantee the
// Spec needs cannot be delivered and was not accepted as missing
// (Spec.AcceptMissing, from the human's risk acceptance record). Elsewhere
// than Linux only the minimal environment and the timeout are given.
package sandbox
