// Package remediate executes an approved remediation plan (the seed's
// "Remediation manifest"): edit-files, run-validation, commit, push,
// reply-to-codex-threads, request-codex-review and update-automation, in
// exactly that order, each reserved in the run's journal before its side
// effect and receipted after it. A reservation without a receipt (a crash,
// or a write whose delivery is unknown) is reconciled by observing the
// world: the commit carrying the Prloop-Run and Prloop-Round trailers, the
// remote head, a reply carrying the thread's reply marker, the request
// carrying round n+1's marker. Nothing is ever done twice.
//
// The caller (the wakeup) holds the run lock and the claim, validated the
// manifest with core against the recurring state, and records the new
// round through Job.UpdateAutomation.
package remediate
