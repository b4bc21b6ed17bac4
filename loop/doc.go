// Package loop holds what executes plans: the per-run operation journal
// (loop/journal) and the executor of the approved initial plan
// (loop/initial). The remediation and finalization executors of later
// wakeups reuse the same journal and the same reconcile-by-observation rule.
package loop
