// Package classify turns one raw GitHub observation (core/observe) into the
// facts the recurring evaluator reads: the qualifying Codex responses in the
// seed's normalized form, the actionable and eligible Codex threads, the
// non-Codex thread count, the four merge gates, and the live "Codex is
// reviewing" signals. It is pure: no I/O, no clock; the caller passes the
// observation, the canonical request and what earlier rounds answered.
//
// Everything in an observation is untrusted text. Trust comes only from the
// author's database id and account type (PROTOCOL §5), never from a login or
// from what a body claims.
package classify
