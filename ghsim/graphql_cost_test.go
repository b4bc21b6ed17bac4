package ghsim

import "testing"

func TestGraphQLCostFollowsGitHubsFormula(t *testing.T) {
	cases := []struct {
		name  string
		query string
		vars  map[string]any
		want  int
	}{
		// No connection at all still costs the minimum.
		{"scalar only", `{ viewer { login } }`, nil, 1},
		// 1 + 100 nested + 1 + (commits 1 + contexts 1) = 104 requests.
		{"observation", `query($n: Int!) { repository(owner: "acme", name: "app") { pullRequest(number: $n) {
			comments(first: 100) { nodes { id } }
			reviewThreads(first: 100) { nodes { comments(first: 100) { nodes { id } } } }
			commits(last: 1) { nodes { commit { statusCheckRollup { contexts(first: 100) { nodes { __typename } } } } } } } } }`,
			map[string]any{"n": 7}, 1},
		// Reactions on every comment of a full page add 100 requests: 202 -> 2.
		{"nested under two pages", `fragment R on IssueComment { reactions(first: $k) { nodes { content } } }
			query($k: Int!) { repository(owner: "acme", name: "app") { pullRequest(number: 7) {
			comments(first: 100) { nodes { ...R } }
			reviewThreads(first: 100) { nodes { comments(first: 100) { nodes { id } } } } } } }`,
			map[string]any{"k": 10}, 2},
		// GitHub's documented example: 1 + 100 + 100*50 = 5101 requests -> 51.
		{"docs example", `{ repository(owner: "acme", name: "app") { pullRequests(first: 100) { nodes {
			comments(first: 50) { nodes { reactions(first: 60) { nodes { content } } } } } } } }`, nil, 51},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.pr.AddComment(Comment{Body: "one"})
			before := f.s.Stats().GraphQLPoints
			doc := f.graphql(c.query, c.vars)
			if errs, ok := doc["errors"]; ok {
				t.Fatalf("errors: %v", errs)
			}
			if got := f.s.Stats().GraphQLPoints - before; got != c.want {
				t.Errorf("charged %d points, want %d", got, c.want)
			}
			if rl := f.s.RateLimit(ResourceGraphQL); rl.Used != c.want {
				t.Errorf("window used %d, want %d", rl.Used, c.want)
			}
		})
	}
}

func TestGraphQLRateLimitCostReportsTheCharge(t *testing.T) {
	f := newFixture(t)
	doc := f.graphql(`{ rateLimit { cost remaining } repository(owner: "acme", name: "app") { pullRequests(first: 100) { nodes {
		comments(first: 100) { nodes { reactions(first: 100) { nodes { content } } } } } } } }`, nil)
	if errs, ok := doc["errors"]; ok {
		t.Fatalf("errors: %v", errs)
	}
	// 1 + 100 + 10,000 requests = 101 points, already spent when read.
	if got := dig(t, doc, "data", "rateLimit", "cost"); got != 101.0 {
		t.Errorf("cost = %v, want 101", got)
	}
	if got := dig(t, doc, "data", "rateLimit", "remaining"); got != 5000.0-101 {
		t.Errorf("remaining = %v, want %d", got, 5000-101)
	}
}
