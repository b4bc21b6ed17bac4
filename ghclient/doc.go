// Package ghclient is all of prloop's GitHub I/O, built on
// github.com/cli/go-gh/v2 so that host and credentials resolve exactly as
// they do for gh.
//
// Reads return complete observations or errors: every connection is paged to
// its end, and an answer with GraphQL errors, a failed page or missing data
// is an error, never a partial result. REST GETs are conditional (ETag), and
// every read reports its Cost. Requests are retried with bounded backoff
// only when that cannot duplicate an effect (see retry.go); rate limits are
// waited out up to Options.MaxWait and announced through Options.OnWait.
//
// Everything GitHub returns is untrusted text; the token never appears in
// an error, a log line or a cache key.
//
// # What an observation costs, and why
//
// GitHub charges GraphQL by its documented formula: each connection is one
// request, multiplied by the page sizes of the connections it is nested in;
// the sum is divided by 100 and rounded, with a minimum of 1 point. It
// charges by requested page size, never by fields or by how full a page is.
// ghsim charges the same formula, so the e2e tests and benchmarks measure
// what github.com would bill.
//
// ObservePR sends one query (queries/observe_pr.graphql) for the first page
// of every connection: comments, reviews, review threads with the first 100
// comments of each, reactions, and the head's check contexts. That is 106
// requests, 1 point. Only connections that report hasNextPage are continued,
// all of them together in one follow-up query per round (node(id:) with
// aliases), so the number of round trips is the page count of the longest
// single connection: one query for a PR whose lists fit in 100, ten for
// 1,000 threads whatever their comments.
//
// Codex's 👀, and the 👍 that is a clean round's only verdict, land on the
// review request comment. Reading reactions of every comment in the bulk
// query would add 100 requests (2 points every time), so the query asks for
// that one comment by node id instead (ObservePRWithRequest, $withRequest):
// its reaction groups with each reactor's time, one more request, still 1
// point. The loop knows its request from its checkpoint; a refreshing report
// passes the request its previous reading found (inspect.ObserveWithRequest).
// Only a reading that does not know the request yet reads that comment's
// reactions over REST (ReactionsForComment): a conditional GET, free as a
// 304 for as long as nobody reacts. A report of a PR with at most 100 of
// everything is therefore 2 round trips the first time (1 point and 1 REST
// request), then 1 point and nothing else on every refresh.
//
// GraphQL has no conditional requests, so re-observing an unchanged PR pays
// for its query again. No cheaper probe is correct. Every fact the report
// shows can change without moving anything a probe could read for less:
// PullRequest.updatedAt is not documented to move when a thread is resolved,
// a comment edited, a reaction added or a check completes, and REST, whose
// 304s are free, has no notion of a thread being resolved at all. A probe
// that reads each item's updatedAt and each thread's isResolved is billed
// per connection page exactly like the bulk query that reads their bodies,
// so for a PR that fits in one page the bulk query IS the cheapest complete
// probe: exactly 1 point and no charged REST request per unchanged refresh.
// A PR beyond one page per connection costs what it costs to observe (about
// a point per 100 threads) on every refresh; see the e2e benchmarks.
//
// 304s never reach go-gh, whose REST client would treat them as errors: the
// ETag cache sits below it in the transport chain and answers a 304 with
// the cached 200 body (with the 304's fresh rate-limit headers), after the
// meter has counted it as NotModified.
package ghclient
