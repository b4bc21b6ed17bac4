// Package procs runs the real gh-prloop binary against the loopback world
// (ghsim/standalone, pointed at through the simenv variables): execution of
// the initial plan end to end, SIGKILL at every side effect, and two apply
// processes at once. It holds only tests.
package procs
