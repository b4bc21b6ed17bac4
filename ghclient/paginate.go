package ghclient

import (
	"encoding/json"
	"fmt"
	"strings"
)

// GraphQL pagination. The first query reads page one of every connection;
// each later query continues, in one request, every connection that still
// has pages, addressing its owner through node(id:) with aliases. Cursors
// only move forward, and a cursor seen twice is an error, so a misbehaving
// server cannot loop us.

// pageSize is GitHub's maximum for first:.
const pageSize = 100

// maxFollowUpConns bounds one follow-up query; larger batches only make a
// single slow request out of several quick ones.
const maxFollowUpConns = 50

// maxFollowUpRounds bounds a single observation (100 rounds of 100 items per
// connection is already 10,000 comments).
const maxFollowUpRounds = 2000

// connSpec names a connection on a node type and the fragment of its page.
type connSpec struct {
	owner    string // GraphQL type that owns the connection
	field    string
	fragment string
	what     string // for error messages
}

var (
	specPRComments   = connSpec{"PullRequest", "comments", "IssueCommentPage", "pull request comments"}
	specPRReviews    = connSpec{"PullRequest", "reviews", "ReviewPage", "pull request reviews"}
	specPRThreads    = connSpec{"PullRequest", "reviewThreads", "ThreadPage", "review threads"}
	specContexts     = connSpec{"StatusCheckRollup", "contexts", "ContextPage", "status check contexts"}
	specThreadCommts = connSpec{"PullRequestReviewThread", "comments", "ThreadCommentPage", "review thread comments"}
)

// pendingPage is a connection with more pages: where it lives, the cursor to
// continue after, and what to do with the next page.
type pendingPage struct {
	spec   connSpec
	nodeID string
	after  string
	absorb func(json.RawMessage) error
}

type followUp struct {
	doc   string
	vars  map[string]any
	nodes []followUpNode
}

type followUpNode struct {
	alias string
	owner string
	id    string
	conns []followUpConn
}

type followUpConn struct {
	alias string
	page  pendingPage
}

// buildFollowUp writes one query continuing every pending connection in
// batch; connections of the same node share one node(id:) selection. A
// pull request selection also reads headRefOid so that a push between
// pages is noticed.
func buildFollowUp(batch []pendingPage) followUp {
	f := followUp{vars: map[string]any{}}
	index := map[string]int{}
	for k, p := range batch {
		i, ok := index[p.nodeID]
		if !ok {
			i = len(f.nodes)
			index[p.nodeID] = i
			f.nodes = append(f.nodes, followUpNode{alias: fmt.Sprintf("n%d", i), owner: p.spec.owner, id: p.nodeID})
		}
		n := &f.nodes[i]
		n.conns = append(n.conns, followUpConn{alias: fmt.Sprintf("c%d", k), page: p})
	}
	var decls []string
	var b strings.Builder
	for _, n := range f.nodes {
		decls = append(decls, fmt.Sprintf("$%s: ID!", n.alias))
		f.vars[n.alias] = n.id
		fmt.Fprintf(&b, "  %s: node(id: $%s) {\n    ... on %s {\n", n.alias, n.alias, n.owner)
		if n.owner == "PullRequest" {
			b.WriteString("      headRefOid\n")
		}
		for _, c := range n.conns {
			cursor := "a" + strings.TrimPrefix(c.alias, "c")
			decls = append(decls, fmt.Sprintf("$%s: String!", cursor))
			f.vars[cursor] = c.page.after
			fmt.Fprintf(&b, "      %s: %s(first: %d, after: $%s) {\n        ...%s\n      }\n", c.alias, c.page.spec.field, pageSize, cursor, c.page.spec.fragment)
		}
		b.WriteString("    }\n  }\n")
	}
	f.doc = document("query ObservePRPages(" + strings.Join(decls, ", ") + ") {\n  rateLimit {\n    cost\n    remaining\n  }\n" + b.String() + "}")
	return f
}
