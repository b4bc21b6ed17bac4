// Package plane2e holds the end-to-end acceptance tests of `gh-prloop plan`:
// real temporary git repositories whose remote is served over HTTPS on
// loopback (ghsim/gitserver), GitHub played by the simulator (ghsim), both
// wired by ghsim/testbed; the plan built by planner.Build, shown in the
// approval console (driven with teatest), re-checked on approval and
// recorded in a temporary state directory (statestore).
//
// The package holds only tests; this file exists so that it has
// documentation.
package plane2e
