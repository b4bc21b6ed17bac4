package ghsim

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/prloop/gh-prloop/ghclient/gqlschema"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// githubSchema is GitHub's public schema from the project's shared reference
// folder (gqlschema.ReferenceDir walks up to the module root and looks beside
// it; PRLOOP_GITHUB_SCHEMA overrides). A missing schema FAILS: these tests are
// the simulator's only proof that it speaks GitHub's GraphQL, and a silent
// skip would let it drift.
func githubSchema(t *testing.T) *ast.Schema {
	t.Helper()
	s, err := gqlschema.Reference()
	if err != nil {
		t.Fatalf("GitHub schema.graphql not loaded from %s (set %s to its path): %v", gqlschema.ReferencePath(), gqlschema.EnvPath, err)
	}
	return s
}

func TestResolverTableMatchesGitHubSchema(t *testing.T) {
	schema := githubSchema(t)
	for typ, fields := range resolvers {
		def := schema.Types[typ]
		if def == nil {
			t.Errorf("type %s is not in GitHub's schema", typ)
			continue
		}
		for name := range fields {
			if def.Fields.ForName(name) == nil {
				t.Errorf("%s.%s is not in GitHub's schema", typ, name)
			}
		}
	}
	for _, typ := range []string{"PageInfo"} {
		for name := range pageInfoFields {
			if schema.Types[typ].Fields.ForName(name) == nil {
				t.Errorf("%s.%s is not in GitHub's schema", typ, name)
			}
		}
	}
	for name := range connectionFields {
		if schema.Types["IssueCommentConnection"].Fields.ForName(name) == nil {
			t.Errorf("connection field %s is not in GitHub's schema", name)
		}
	}
}

func TestInterfacesAndUnionsMatchGitHubSchema(t *testing.T) {
	schema := githubSchema(t)
	for typ, want := range implements {
		def := schema.Types[typ]
		if def == nil {
			t.Errorf("type %s missing", typ)
			continue
		}
		got := append([]string{}, def.Interfaces...)
		sort.Strings(got)
		w := append([]string{}, want...)
		sort.Strings(w)
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s implements %v in GitHub's schema, the simulator says %v", typ, got, w)
		}
	}
	for u, want := range unions {
		got := append([]string{}, schema.Types[u].Types...)
		sort.Strings(got)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("union %s = %v, simulator says %v", u, got, want)
		}
	}
}

func TestEmittedEnumValuesAreGitHubs(t *testing.T) {
	schema := githubSchema(t)
	has := func(enum, v string) bool {
		return schema.Types[enum] != nil && schema.Types[enum].EnumValues.ForName(v) != nil
	}
	for _, v := range reactionContent {
		if !has("ReactionContent", v) {
			t.Errorf("ReactionContent %s", v)
		}
	}
	for _, v := range []string{"queued", "in_progress", "completed", "waiting", "requested", "pending"} {
		if !has("CheckStatusState", upperOrNull(v).(string)) {
			t.Errorf("CheckStatusState %s", v)
		}
	}
	for _, v := range []string{"success", "failure", "neutral", "cancelled", "skipped", "timed_out", "action_required", "stale", "startup_failure"} {
		if !has("CheckConclusionState", upperOrNull(v).(string)) {
			t.Errorf("CheckConclusionState %s", v)
		}
	}
	for _, v := range []string{"SUCCESS", "PENDING", "FAILURE", "ERROR"} {
		if !has("StatusState", v) {
			t.Errorf("StatusState %s", v)
		}
	}
	for _, p := range []PullRequest{{State: "open"}, {State: "closed"}, {State: "closed", Merged: true}} {
		if !has("PullRequestState", pullStateEnum(&p)) {
			t.Errorf("PullRequestState %s", pullStateEnum(&p))
		}
	}
}

// observeQuery has the shape the brief gives ghclient's observation query.
const observeQuery = `
query Observe($owner: String!, $name: String!, $number: Int!, $after: String) {
  viewer { login databaseId }
  rateLimit { cost limit remaining resetAt used }
  repository(owner: $owner, name: $name) {
    ref(qualifiedName: "refs/heads/main") { target { oid } }
    pullRequests(headRefName: "topic", states: [OPEN], first: 5) { nodes { number } }
    pullRequest(number: $number) {
      id number url title body state isDraft isCrossRepository baseRefName baseRefOid headRefName headRefOid
      mergeable mergeStateStatus reviewDecision author { login }
      comments(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id databaseId author { login __typename ... on Bot { databaseId } ... on User { databaseId } } body createdAt updatedAt lastEditedAt }
      }
      reviews(first: 100) { nodes { id databaseId author { login } body state submittedAt updatedAt lastEditedAt commit { oid } comments { totalCount } } }
      reviewThreads(first: 100) {
        totalCount
        nodes {
          id isResolved isOutdated path line originalLine startLine originalStartLine diffSide startDiffSide
          comments(first: 100) { totalCount nodes { id databaseId author { login } body createdAt lastEditedAt commit { oid } originalCommit { oid } path replyTo { databaseId } pullRequestReview { databaseId } } }
        }
      }
      reactions(first: 100) { nodes { content createdAt user { login databaseId } } }
      commits(last: 1) { nodes { commit { oid statusCheckRollup { state contexts(first: 100) { pageInfo { hasNextPage endCursor } nodes { __typename ... on CheckRun { name status conclusion } ... on StatusContext { context state } } } } } } }
    }
  }
}`

func TestObserveQueryIsValidAndAnswered(t *testing.T) {
	schema := githubSchema(t)
	if _, errs := gqlparser.LoadQueryWithRules(schema, observeQuery, nil); len(errs) > 0 {
		t.Fatalf("query invalid against GitHub's schema: %v", errs)
	}
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: Findings})
	f.repo.AddCheckRun(CheckRun{HeadSHA: shaB, Name: "build", Conclusion: "success"})
	f.postRequest("@codex review")
	f.s.Settle()
	doc := f.graphql(observeQuery, prVars())
	if errs, ok := doc["errors"]; ok {
		t.Fatalf("errors: %v", errs)
	}
	pr := dig(t, doc, "data", "repository", "pullRequest")
	if n := len(dig(t, pr, "reviewThreads", "nodes").([]any)); n != 2 {
		t.Errorf("threads = %d", n)
	}
	if dig(t, pr, "commits", "nodes", 0, "commit", "statusCheckRollup", "state") != "SUCCESS" {
		t.Errorf("rollup = %v", dig(t, pr, "commits"))
	}
	if dig(t, pr, "reviews", "nodes", 0, "comments", "totalCount") != 2.0 {
		t.Errorf("review comment count = %v", dig(t, pr, "reviews", "nodes", 0))
	}
}

func TestMutationsAreValidAgainstGitHubSchema(t *testing.T) {
	schema := githubSchema(t)
	for _, q := range []string{
		`mutation($id: ID!, $body: String!) { addComment(input: {subjectId: $id, body: $body}) { commentEdge { node { databaseId } } } }`,
		`mutation($t: ID!, $body: String!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $t, body: $body}) { comment { databaseId } } }`,
		`mutation($t: ID!) { resolveReviewThread(input: {threadId: $t}) { thread { isResolved } } }`,
		`mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft } } }`,
		`mutation($r: ID!) { createPullRequest(input: {repositoryId: $r, baseRefName: "main", headRefName: "x", title: "t"}) { pullRequest { number } } }`,
	} {
		if _, errs := gqlparser.LoadQueryWithRules(schema, q, nil); len(errs) > 0 {
			t.Errorf("%s: %v", q, errs)
		}
	}
}

// TestFullDatabaseIDWhereverGitHubHasIt: clients read database ids from the
// BigInt fullDatabaseId (databaseId is an Int that GitHub's ids outgrow), so
// every served type whose GitHub type has it must serve it too.
func TestFullDatabaseIDWhereverGitHubHasIt(t *testing.T) {
	schema := githubSchema(t)
	for typ, fields := range resolvers {
		def := schema.Types[typ]
		if def == nil || def.Fields.ForName("fullDatabaseId") == nil {
			continue
		}
		if fields["fullDatabaseId"] == nil {
			t.Errorf("%s has fullDatabaseId on GitHub but not in the simulator", typ)
		}
		if got := def.Fields.ForName("fullDatabaseId").Type.Name(); got != "BigInt" {
			t.Errorf("%s.fullDatabaseId is %s", typ, got)
		}
	}
}

func TestFullDatabaseIDIsTheDatabaseIDAsAString(t *testing.T) {
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: Findings})
	f.postRequest("@codex review")
	f.s.Settle()
	doc := f.graphql(`{repository(owner:"acme",name:"app"){pullRequest(number:7){databaseId fullDatabaseId
		comments(first:5){nodes{databaseId fullDatabaseId}}
		reviews(first:5){nodes{databaseId fullDatabaseId comments(first:5){nodes{databaseId fullDatabaseId}}}}}}}`, nil)
	if errs, ok := doc["errors"]; ok {
		t.Fatalf("errors: %v", errs)
	}
	pr := dig(t, doc, "data", "repository", "pullRequest")
	items := []any{pr}
	items = append(items, dig(t, pr, "comments", "nodes").([]any)...)
	for _, r := range dig(t, pr, "reviews", "nodes").([]any) {
		items = append(items, r)
		items = append(items, dig(t, r, "comments", "nodes").([]any)...)
	}
	if len(items) < 5 {
		t.Fatalf("only %d items", len(items))
	}
	for _, it := range items {
		full, ok := dig(t, it, "fullDatabaseId").(string)
		if !ok || full != fmt.Sprint(int64(dig(t, it, "databaseId").(float64))) {
			t.Errorf("fullDatabaseId %v for databaseId %v", dig(t, it, "fullDatabaseId"), dig(t, it, "databaseId"))
		}
	}
}
