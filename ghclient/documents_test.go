package ghclient

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghclient/gqlschema"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// allFollowUpKinds is a follow-up that continues every kind of connection,
// two of them on the same node, so that batching and aliasing are checked.
func allFollowUpKinds() followUp {
	return buildFollowUp([]pendingPage{
		{spec: specPRComments, nodeID: "PR", after: "a"},
		{spec: specPRReviews, nodeID: "PR", after: "b"},
		{spec: specPRThreads, nodeID: "PR", after: "c"},
		{spec: specContexts, nodeID: "SCR", after: "e"},
		{spec: specThreadCommts, nodeID: "T1", after: "f"},
		{spec: specThreadCommts, nodeID: "T2", after: "g"},
	})
}

func sentDocuments() map[string]string {
	return map[string]string{
		"observe_pr":      observePRDoc,
		"pr_node_id":      prNodeIDDoc,
		"reply_to_thread": replyThreadDoc,
		"resolve_thread":  resolveDoc,
		"mark_ready":      markReadyDoc,
		"follow-up":       allFollowUpKinds().doc,
	}
}

func TestEveryDocumentIsValidAgainstGitHubSchema(t *testing.T) {
	schema := testSchema(t)
	for name, doc := range sentDocuments() {
		if err := gqlschema.Validate(schema, doc); err != nil {
			t.Errorf("%s: %v\n%s", name, err, doc)
		}
	}
}

func TestEveryQueryFileIsSent(t *testing.T) {
	// A .graphql file that no document uses would escape validation.
	files, err := fs.Glob(queryFiles, "queries/*.graphql")
	if err != nil {
		t.Fatal(err)
	}
	docs := sentDocuments()
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "queries/"), ".graphql")
		if name == "fragments" {
			continue
		}
		if _, ok := docs[name]; !ok {
			t.Errorf("%s is not among the validated documents", f)
		}
	}
	for name := range fragments {
		used := false
		for _, d := range docs {
			used = used || strings.Contains(d, "fragment "+name+" ")
		}
		if !used {
			t.Errorf("fragment %s is never sent", name)
		}
	}
}

func TestObserveQueryCostsOnePointByGitHubFormula(t *testing.T) {
	schema := testSchema(t)
	for name, doc := range map[string]string{"observe_pr": observePRDoc, "pr_node_id": prNodeIDDoc} {
		q, err := parser.ParseQuery(&ast.Source{Input: doc})
		if err != nil {
			t.Fatal(err)
		}
		if err := gqlschema.Validate(schema, doc); err != nil {
			t.Fatal(err)
		}
		// Validation annotates the AST with definitions; re-run it on q.
		validated := mustValidate(t, schema, q)
		if cost := estimateCost(validated); cost > 1 {
			t.Errorf("%s costs %d points; an unchanged PR must cost at most 1", name, cost)
		}
	}
}

func TestEveryQueryAsksForItsRateLimitCost(t *testing.T) {
	for name, doc := range sentDocuments() {
		if strings.HasPrefix(strings.TrimSpace(doc), "mutation") {
			continue // Mutation has no rateLimit field
		}
		if !strings.Contains(doc, "rateLimit {\n    cost\n    remaining\n  }") {
			t.Errorf("%s does not request rateLimit{cost remaining}", name)
		}
	}
}

func TestFollowUpBatchesConnectionsOfOneNode(t *testing.T) {
	f := allFollowUpKinds()
	if len(f.nodes) != 4 || len(f.nodes[0].conns) != 3 {
		t.Fatalf("nodes %d, PR connections %d; want 4 and 3", len(f.nodes), len(f.nodes[0].conns))
	}
	if f.vars["n0"] != "PR" || f.vars["a5"] != "g" || !strings.Contains(f.doc, "c5: comments(first: 100, after: $a5)") {
		t.Fatalf("aliases or variables wrong: %v\n%s", f.vars, f.doc)
	}
}

func TestFragmentsAreIncludedTransitivelyAndOnlyWhenUsed(t *testing.T) {
	d := document("query { viewer { login } }")
	if strings.Contains(d, "fragment") {
		t.Fatalf("unused fragment included:\n%s", d)
	}
	d = document("query { repository(owner: \"o\", name: \"n\") { pullRequest(number: 1) { comments(first: 1) { ...IssueCommentPage } } } }")
	for _, want := range []string{"fragment IssueCommentPage ", "fragment ActorFields ", "fragment PageFields "} {
		if !strings.Contains(d, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(d, "fragment ThreadPage ") {
		t.Error("unrelated fragment included")
	}
}

func TestCostEstimatorFollowsGitHubFormula(t *testing.T) {
	schema := testSchema(t)
	// 1 + 100 + 100*100 requests = 10101 -> 101 points.
	doc := `query { repository(owner: "o", name: "n") { pullRequest(number: 1) { reviewThreads(first: 100) { nodes { comments(first: 100) { nodes { reactions(first: 100) { totalCount } } } } } } } }`
	q, err := parser.ParseQuery(&ast.Source{Input: doc})
	if err != nil {
		t.Fatal(err)
	}
	if got := estimateCost(mustValidate(t, schema, q)); got != 101 {
		t.Fatalf("estimate %d, want 101", got)
	}
}
