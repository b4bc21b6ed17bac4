// Package ghsim is a loopback GitHub simulator for tests and demos.
//
// It speaks GitHub's real wire contract (REST v3 shapes, headers, ETags,
// Link pagination, rate limits, and a GraphQL endpoint with GitHub's error
// shapes) so that a production client built on go-gh can be pointed at it
// unchanged. The data model is seeded through Repo and PR handles, time comes
// from an injectable clock, and a scripted Codex bot answers "@codex review"
// requests the way the real chatgpt-codex-connector[bot] does.
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
// Nothing here touches the network beyond 127.0.0.1.
package ghsim
