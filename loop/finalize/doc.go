// Package finalize executes the two finalization plans (the seed's
// "Finalization manifest"). Execute runs the first plan's GitHub
// operations — mark-draft-ready, then resolve-codex-threads for the
// eligible threads only — and never deletes anything: the seed requires a
// fresh snapshot and a second plan for that. Finish runs the second plan,
// whose only operation is delete-owned-automation, and hands the caller
// finalized_at and the fresh merge-gate report to record.
//
// Both journal every operation (loop/journal) and reconcile a reservation
// without a receipt by observation: the PR's draft state, each thread's
// resolution, the registry entry.
package finalize
