package testbed

import (
	"fmt"

	"github.com/prloop/gh-prloop/ghsim"
)

// roundFindings are what the scripted Codex bot reports on the bed's
// change, round by round. Each points at a real line of a file the pending
// change commits (the head after `start`: internal/retry/budget.go,
// internal/httpclient/client.go, internal/retry/budget_test.go), so a
// fixer can change it; lines stay valid while fixes only add lines.
var roundFindings = [][]ghsim.Finding{
	{
		{Priority: 1, Title: "Reset the retry budget after a successful attempt", Path: "internal/retry/budget.go", Line: 17,
			Body: "`Take` only ever increments `used`, so after `Max` transient failures every later call is refused, even when the upstream has recovered."},
		{Priority: 2, Title: "Rewind the request body before retrying", Path: "internal/httpclient/client.go", Line: 12,
			Body: "`c.Do(req)` consumes `req.Body`; the retry sends an empty body for POST and PUT. Use `req.GetBody` to get a fresh copy."},
	},
	{
		{Priority: 1, Title: "Honour Retry-After before retrying a 503", Path: "internal/httpclient/client.go", Line: 16,
			Body: "The loop retries immediately; a 503 with `Retry-After` asks the client to wait, and retrying at once adds load to a struggling upstream."},
		{Priority: 2, Title: "Cover concurrent Take calls", Path: "internal/retry/budget_test.go", Line: 6,
			Body: "`Budget` guards `used` with a mutex, but no test calls `Take` from several goroutines; run one under `-race`."},
	},
	{
		{Priority: 2, Title: "Reject a negative Max", Path: "internal/retry/budget.go", Line: 9,
			Body: "A negative `Max` silently disables retries; validate it where the budget is built."},
		{Priority: 3, Title: "Treat 504 Gateway Timeout as retryable", Path: "internal/httpclient/client.go", Line: 21,
			Body: "`retryable` covers 502 and 503 but not 504, which the same proxies return for the same transient condition."},
	},
}

// RoundFindings is the findings of the bot's round-th findings answer
// (0-based). Every round has new titles and positions: after the table's
// rounds the titles carry the round number, so that a loop's rounds stay
// distinguishable however many there are.
func RoundFindings(round int) []ghsim.Finding {
	if round < 0 {
		round = 0
	}
	base := roundFindings[round%len(roundFindings)]
	out := make([]ghsim.Finding, len(base))
	copy(out, base)
	if round >= len(roundFindings) {
		for i := range out {
			out[i].Title = fmt.Sprintf("%s (round %d)", out[i].Title, round+1)
		}
	}
	return out
}
