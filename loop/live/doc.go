// Package live connects the watch console to a running loop: it builds the
// status read model (loop/status) from the run's state directory — the
// checkpoint, history.jsonl and the automation registry — plus the fresh
// state of the last wakeup this process ran, and drives wakeups through
// loop/wakeup.One, the code path and run lock of `gh-prloop wakeup`.
//
// Reading makes no GitHub request: between wakeups the console costs
// nothing. A wakeup costs what `gh-prloop wakeup` costs (one GraphQL
// observation when idle), and its observation is what the console shows.
package live
