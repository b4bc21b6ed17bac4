// Package evaluate is the recurring evaluator (`gh-prloop evaluate --state`,
// PROTOCOL §5): one pure function from a recurring state to one action of a
// closed vocabulary, plus the validators and builders of the two recurring
// write plans (the seed's remediation and finalization manifests).
//
// The decision order is fixed: schema, report-only, consistency, plans in the
// state, then the Codex verdict. Every step either decides or hands on, so a
// state yields exactly one action, and the same bytes always yield the same
// result: the evaluator's "now" is observed_at, never a clock.
//
// Decisions the seed and PROTOCOL leave open, fixed here (docs/protocol.md §6
// lists every rule with its test):
//   - ok is false exactly when the action is halt.
//   - A finalized state (finalized_at set) is done right after the schema
//     step: finish-finalization deleted the owned automation on purpose, and
//     the PR may since have been merged, so the consistency rules that guard
//     writes do not apply to a run that will never write again.
//   - In the write modes, responses holds only responses that qualify for the
//     pending request (trigger_request_comment_id == request_comment_id); in
//     report-only a response may also carry a null trigger (an older one kept
//     for the report), never another request's id.
//   - A finalization manifest is "built from the post-mutation snapshot" when
//     the pending request key is already in completed_request_keys: executing
//     the first finalization plan completes the round. finish-finalization
//     needs no second approval; the approved first plan already listed
//     delete-owned-automation.
//   - base-drift and remote-drift compare the plan in the state (its
//     base_branch, base_sha and remote_name) with the fresh state, because the
//     plan is what carries the checkpoint the base and remote were approved at.
//   - A remediation or finalization plan that fails its validator halts with
//     reason invalid-plan and lists the problems; a post-mutation plan that
//     still has GitHub operations halts with finalization-incomplete.
package evaluate
