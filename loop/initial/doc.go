// Package initial executes an approved initial plan: immediately before the
// first side effect it rebuilds the plan from fresh observations and
// requires the approved hash; then it runs each operation of the manifest in
// the seed's order, reserving it in the run's journal before its side effect
// and receipting it after. Every operation first observes whether its effect
// already exists (a crash or an unknown delivery left a reservation without
// a receipt) and either records the receipt it finds, acts when the world
// shows the effect is absent, or halts naming what it saw. Never a second
// commit, push, pull request or request comment.
//
// The console and the headless `apply` only render the Events it emits.
package initial
