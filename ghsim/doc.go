// Package ghsim is a loopback GitHub simulator for tests and demos.
//
// It speaks GitHub's real wire contract (REST v3 shapes, headers, ETags,
// Link pagination, rate limits, and a GraphQL endpoint with GitHub's error
// shapes) so that a production client built on go-gh can be pointed at it
// unchanged. The data model is seeded through Repo and PR handles, time comes
// from an injectable clock, and a scripted Codex bot answers "@codex review"
// requests the way the real chatgpt-codex-connector[bot] does: one scripted
// outcome per request from a queue (QueueCodexScenarios; kinds by stable name
// through ParseScenarioKind: findings, clean, clean-by-reaction,
// findings-comment, the notices, failed-summary, silence). Any other @codex
// mention is answered as a Codex cloud task answers, never as a review.
//
// Typical use:
//
//	clock := ghsim.NewManualClock(start)
//	sim := ghsim.New(ghsim.Options{Clock: clock.Now})
//	defer sim.Close()
//	pr := ghsim.SeedDemo(sim) // or AddRepo / AddPR / AddThread ...
//	rest, _ := api.NewRESTClient(api.ClientOptions{
//		Host: "github.com", AuthToken: "t", Transport: sim.Transport()})
//	clock.Advance(2 * time.Minute) // the bot's steps follow the clock
//	sim.Settle()                   // or finish them now
//
// GraphQL calls are charged GitHub's documented point formula (see
// graphql_cost.go), so that request counts and points measured against the
// simulator are what github.com would bill. Types are served as GitHub's
// schema types them: a bot's reaction is visible through
// ReactionGroup.reactors, not Reaction.user (a User field), and ids come
// both as databaseId and as the string-encoded fullDatabaseId.
//
// SeedDemo and DemoFollowUp are the world of `gh-prloop demo`.
//
// Nothing here touches the network beyond 127.0.0.1.
package ghsim
