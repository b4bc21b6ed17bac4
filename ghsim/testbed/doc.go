// Package testbed wires the two loopback halves of GitHub — the API
// simulator (ghsim) and the git smart-HTTP server (ghsim/gitserver) — to a
// real local checkout, so that a plan built against it sees one coherent
// world: the checkout's remote URL names the git server's repository, that
// repository is the simulator's repository of the same owner/name, the git
// runner trusts the server's CA and answers its credential prompt, the
// planner's host is the git server's host:port, and the GitHub client talks
// to the simulator.
//
// It is used by the end-to-end tests of `gh-prloop plan` and by
// `gh-prloop demo plan`, so its API takes a directory and returns a Close
// func instead of depending on package testing.
//
// Setup that is not part of what the product observes (creating commits,
// editing the checkout) runs the host git with a neutral environment
// (Bed.Setup); everything that touches the network — clone, push,
// ls-remote — goes through the same sanitized gitx.Runner the product uses.
package testbed
