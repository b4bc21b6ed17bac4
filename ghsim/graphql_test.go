package ghsim

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

const prQuery = `query PR($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      id number title isDraft headRefOid baseRefName
      state mergeable mergeStateStatus reviewDecision
      author { login }
    }
  }
}`

func prVars() map[string]any { return map[string]any{"owner": "acme", "name": "app", "number": 7} }

func TestGraphQLReturnsOnlySelectedFieldsInOrder(t *testing.T) {
	f := newFixture(t)
	r := f.do("POST", "/graphql", map[string]any{"query": prQuery, "variables": prVars()})
	got := orderedKeys(t, r.body, "data", "repository", "pullRequest")
	want := []string{"id", "number", "title", "isDraft", "headRefOid", "baseRefName", "state", "mergeable", "mergeStateStatus", "reviewDecision", "author"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("keys %v, want %v", got, want)
	}
	pr := dig(t, r.json(t), "data", "repository", "pullRequest")
	if dig(t, pr, "headRefOid") != shaB || dig(t, pr, "state") != "OPEN" || dig(t, pr, "mergeable") != "MERGEABLE" ||
		dig(t, pr, "reviewDecision") != nil || dig(t, pr, "number") != 7.0 {
		t.Errorf("pr = %v", pr)
	}
	if a := dig(t, pr, "author").(map[string]any); len(a) != 1 || a["login"] != "monalisa" {
		t.Errorf("author = %v", a)
	}
	if _, ok := r.object(t)["errors"]; ok {
		t.Errorf("unexpected errors: %s", r.body)
	}
}

func TestGraphQLAliasesFragmentsAndTypename(t *testing.T) {
	f := newFixture(t)
	human := f.s.AddAccount(Account{Login: "octocat", ID: 583231, Type: TypeUser})
	f.pr.AddComment(Comment{Author: human, Body: "human"})
	f.pr.AddComment(Comment{Author: CodexBot(), Body: "bot"})
	q := `
query ($n: Int = 7) {
  r: repository(owner: "acme", name: "app") {
    p: pullRequest(number: $n) {
      ...Comments
      again: number
      number
    }
  }
}
fragment Who on Actor { login __typename }
fragment Comments on PullRequest {
  comments(first: 10) {
    nodes {
      body
      author { ...Who ... on Bot { databaseId } ... on User { databaseId } }
      skipped: body @skip(if: true)
      included: id @include(if: false)
    }
  }
}`
	doc := f.graphql(q, nil)
	p := dig(t, doc, "data", "r", "p")
	if dig(t, p, "again") != 7.0 || dig(t, p, "number") != 7.0 {
		t.Errorf("aliases: %v", p)
	}
	nodes := dig(t, p, "comments", "nodes").([]any)
	if len(nodes) != 2 {
		t.Fatalf("nodes = %v", nodes)
	}
	want := []map[string]any{
		{"body": "human", "author": map[string]any{"login": "octocat", "__typename": "User", "databaseId": 583231.0}},
		{"body": "bot", "author": map[string]any{"login": "chatgpt-codex-connector", "__typename": "Bot", "databaseId": float64(CodexBotID)}},
	}
	for i, n := range nodes {
		if !reflect.DeepEqual(n, any(want[i])) {
			t.Errorf("node %d = %v, want %v", i, n, want[i])
		}
	}
}

func TestGraphQLConnectionPagination(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 5; i++ {
		if _, err := f.pr.AddThread(ThreadSpec{Root: ReviewComment{Author: CodexBot(), Body: fmt.Sprintf("t%d", i), Path: "a.go", Line: i + 1}}); err != nil {
			t.Fatal(err)
		}
	}
	q := `query($after: String) { repository(owner:"acme", name:"app") { pullRequest(number: 7) {
  reviewThreads(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { path line comments(first: 1) { nodes { body } } } }
}}}`
	var bodies []string
	var after any
	for page := 0; page < 5; page++ {
		doc := f.graphql(q, map[string]any{"after": after})
		conn := dig(t, doc, "data", "repository", "pullRequest", "reviewThreads")
		if dig(t, conn, "totalCount") != 5.0 {
			t.Fatalf("totalCount = %v", dig(t, conn, "totalCount"))
		}
		for _, n := range dig(t, conn, "nodes").([]any) {
			bodies = append(bodies, dig(t, n, "comments", "nodes", 0, "body").(string))
		}
		if dig(t, conn, "pageInfo", "hasNextPage") == false {
			break
		}
		after = dig(t, conn, "pageInfo", "endCursor")
	}
	if strings.Join(bodies, ",") != "t0,t1,t2,t3,t4" {
		t.Fatalf("walked %v", bodies)
	}

	edges := f.graphql(`{repository(owner:"acme",name:"app"){pullRequest(number:7){reviewThreads(last:2){edges{cursor node{line}} pageInfo{hasPreviousPage hasNextPage startCursor}}}}}`, nil)
	conn := dig(t, edges, "data", "repository", "pullRequest", "reviewThreads")
	if dig(t, conn, "edges", 0, "node", "line") != 4.0 || dig(t, conn, "edges", 1, "node", "line") != 5.0 {
		t.Errorf("last:2 = %v", conn)
	}
	if dig(t, conn, "pageInfo", "hasPreviousPage") != true || dig(t, conn, "pageInfo", "startCursor") != dig(t, conn, "edges", 0, "cursor") {
		t.Errorf("pageInfo = %v", dig(t, conn, "pageInfo"))
	}
}

func TestGraphQLPaginationBoundaries(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct{ args, typ, msg string }{
		{"", "MISSING_PAGINATION_BOUNDARIES", "You must provide a `first` or `last` value to properly paginate the `comments` connection."},
		{"(first: 101)", "EXCESSIVE_PAGINATION", "Requesting 101 records on the `comments` connection exceeds the `first` limit of 100 records."},
		{`(first: 1, after: "bogus")`, "INVALID_CURSOR_ARGUMENTS", "`bogus` does not appear to be a valid cursor."},
	} {
		doc := f.graphql(`{repository(owner:"acme",name:"app"){pullRequest(number:7){number comments`+tc.args+`{totalCount nodes{id}}}}}`, nil)
		e := dig(t, doc, "errors", 0)
		if dig(t, e, "type") != tc.typ || dig(t, e, "message") != tc.msg {
			t.Errorf("%s: error = %v", tc.args, e)
		}
		if p := fmt.Sprint(dig(t, e, "path")); p != "[repository pullRequest comments]" {
			t.Errorf("%s: path = %s", tc.args, p)
		}
		// The rest of the object still resolves.
		if dig(t, doc, "data", "repository", "pullRequest", "number") != 7.0 || dig(t, doc, "data", "repository", "pullRequest", "comments") != nil {
			t.Errorf("%s: data = %v", tc.args, dig(t, doc, "data"))
		}
	}
}

func TestGraphQLErrorsInGitHubShape(t *testing.T) {
	f := newFixture(t)
	undefined := f.graphql("query Q {\n  viewer { login notAField }\n}", nil)
	if _, ok := undefined["data"]; ok {
		t.Errorf("validation error must not carry data: %v", undefined)
	}
	e := dig(t, undefined, "errors", 0)
	if dig(t, e, "message") != "Field 'notAField' doesn't exist on type 'User'" ||
		dig(t, e, "extensions", "code") != "undefinedField" ||
		fmt.Sprint(dig(t, e, "path")) != "[query Q viewer notAField]" ||
		dig(t, e, "locations", 0, "line") != 2.0 {
		t.Errorf("undefined field error = %v", e)
	}

	missing := f.graphql(prQuery, map[string]any{"owner": "acme", "name": "nope", "number": 7})
	e = dig(t, missing, "errors", 0)
	if dig(t, e, "type") != "NOT_FOUND" || dig(t, e, "message") != "Could not resolve to a Repository with the name 'acme/nope'." ||
		dig(t, missing, "data", "repository") != nil {
		t.Errorf("not found = %v", missing)
	}
	noPR := f.graphql(prQuery, map[string]any{"owner": "acme", "name": "app", "number": 99})
	if dig(t, noPR, "errors", 0, "message") != "Could not resolve to a PullRequest with the number of 99." {
		t.Errorf("no PR = %v", noPR)
	}

	noVar := f.graphql(prQuery, map[string]any{"owner": "acme", "name": "app"})
	if dig(t, noVar, "errors", 0, "message") != "Variable $number of type Int! was provided invalid value" {
		t.Errorf("missing variable = %v", noVar)
	}
	parse := f.graphql("{ viewer { login ", nil)
	if msg := dig(t, parse, "errors", 0, "message").(string); !strings.HasPrefix(msg, "Parse error on ") {
		t.Errorf("parse error = %v", parse)
	}
	if st := f.s.Stats(); st.GraphQLPoints != 5 {
		t.Errorf("every GraphQL answer costs at least a point: %d", st.GraphQLPoints)
	}
}

func TestGraphQLThreadsReviewsReactionsAndChecks(t *testing.T) {
	f := newFixture(t)
	bot := CodexBot()
	rv := f.pr.AddReview(Review{Author: bot, Body: "### 💡 Codex Review", State: "COMMENTED"})
	th, err := f.pr.AddThread(ThreadSpec{Root: ReviewComment{ReviewID: rv.ID, Author: bot, Body: "finding", Path: "a.go", Line: 9, StartLine: 7}})
	if err != nil {
		t.Fatal(err)
	}
	reply, err := f.pr.Reply(th.NodeID, ReviewComment{Body: "fixed"})
	if err != nil {
		t.Fatal(err)
	}
	f.pr.AddReaction(Reaction{Content: "+1", User: bot, CreatedAt: testStart.Add(time.Minute)})
	human := f.s.AddAccount(Account{Login: "hubot", Type: TypeUser})
	f.pr.AddReaction(Reaction{Content: "+1", User: human, CreatedAt: testStart.Add(2 * time.Minute)})
	f.pr.AddReaction(Reaction{Content: "eyes", User: bot, CreatedAt: testStart.Add(3 * time.Minute)})
	f.repo.AddCheckRun(CheckRun{HeadSHA: shaB, Name: "build", Status: "completed", Conclusion: "success"})
	f.repo.AddCheckRun(CheckRun{HeadSHA: shaB, Name: "lint", Status: "in_progress"})
	f.repo.AddStatus(CommitStatus{SHA: shaB, Context: "ci/legacy", State: "success"})

	q := `{repository(owner:"acme",name:"app"){pullRequest(number:7){
  reviews(first:10){nodes{databaseId state body commit{oid} comments{totalCount} author{login}}}
  reviewThreads(first:10){nodes{id isResolved isOutdated path line originalLine startLine originalStartLine diffSide startDiffSide
    comments(first:10){totalCount nodes{databaseId body commit{oid} originalCommit{oid} path replyTo{databaseId} pullRequestReview{databaseId}}}}}
  reactions(first:10){nodes{content user{login databaseId}}}
  reactionGroups{content createdAt reactors(first:10){totalCount edges{reactedAt node{__typename ... on Bot{login databaseId} ... on User{login databaseId}}}}}
  commits(last:1){nodes{commit{oid statusCheckRollup{state contexts(first:10){nodes{__typename ... on CheckRun{name status conclusion} ... on StatusContext{context state}}}}}}}
}}}`
	doc := f.graphql(q, nil)
	if errs, ok := doc["errors"]; ok {
		t.Fatalf("errors: %v", errs)
	}
	pr := dig(t, doc, "data", "repository", "pullRequest")
	if dig(t, pr, "reviews", "nodes", 0, "commit", "oid") != shaB || dig(t, pr, "reviews", "nodes", 0, "comments", "totalCount") != 1.0 {
		t.Errorf("review = %v", dig(t, pr, "reviews", "nodes", 0))
	}
	thread := dig(t, pr, "reviewThreads", "nodes", 0)
	if dig(t, thread, "id") != th.NodeID || dig(t, thread, "line") != 9.0 || dig(t, thread, "startLine") != 7.0 || dig(t, thread, "diffSide") != "RIGHT" {
		t.Errorf("thread = %v", thread)
	}
	c1 := dig(t, thread, "comments", "nodes", 1)
	if dig(t, c1, "databaseId") != float64(reply.ID) || dig(t, c1, "replyTo", "databaseId") != float64(th.Comments[0].ID) ||
		dig(t, c1, "pullRequestReview", "databaseId") == float64(rv.ID) {
		t.Errorf("reply = %v", c1)
	}
	// Reaction.user is typed User: the bot's reactions have none there.
	if dig(t, pr, "reactions", "nodes", 0, "content") != "THUMBS_UP" || dig(t, pr, "reactions", "nodes", 0, "user") != nil ||
		dig(t, pr, "reactions", "nodes", 1, "user", "databaseId") != float64(human.ID) {
		t.Errorf("reactions = %v", dig(t, pr, "reactions"))
	}
	// reactionGroups lists contents in schema order, reactors with their type.
	groups := dig(t, pr, "reactionGroups").([]any)
	if len(groups) != 2 || dig(t, groups[0], "content") != "THUMBS_UP" || dig(t, groups[1], "content") != "EYES" ||
		dig(t, groups[0], "reactors", "totalCount") != 2.0 || dig(t, groups[0], "createdAt") != stamp(testStart.Add(time.Minute)) {
		t.Fatalf("reactionGroups = %v", groups)
	}
	botEdge := dig(t, groups[0], "reactors", "edges", 0)
	if dig(t, botEdge, "node", "__typename") != "Bot" || dig(t, botEdge, "node", "login") != CodexAppSlug ||
		dig(t, botEdge, "node", "databaseId") != float64(CodexBotID) || dig(t, botEdge, "reactedAt") != stamp(testStart.Add(time.Minute)) {
		t.Errorf("bot reactor = %v", botEdge)
	}
	if dig(t, groups[0], "reactors", "edges", 1, "node", "__typename") != "User" || dig(t, groups[1], "reactors", "edges", 0, "reactedAt") != stamp(testStart.Add(3*time.Minute)) {
		t.Errorf("reactors = %v", groups)
	}
	roll := dig(t, pr, "commits", "nodes", 0, "commit", "statusCheckRollup")
	if dig(t, roll, "state") != "PENDING" {
		t.Errorf("rollup state = %v", dig(t, roll, "state"))
	}
	ctx := dig(t, roll, "contexts", "nodes").([]any)
	want := []any{
		map[string]any{"__typename": "CheckRun", "name": "build", "status": "COMPLETED", "conclusion": "SUCCESS"},
		map[string]any{"__typename": "CheckRun", "name": "lint", "status": "IN_PROGRESS", "conclusion": nil},
		map[string]any{"__typename": "StatusContext", "context": "ci/legacy", "state": "SUCCESS"},
	}
	if !reflect.DeepEqual(ctx, want) {
		t.Errorf("contexts = %v", ctx)
	}
}

func TestGraphQLMutations(t *testing.T) {
	f := newFixture(t)
	f.s.SetCodexScenario(Scenario{Kind: Silent})
	th, err := f.pr.AddThread(ThreadSpec{Root: ReviewComment{Author: CodexBot(), Body: "finding", Path: "a.go", Line: 3}})
	if err != nil {
		t.Fatal(err)
	}
	prID := f.pr.Data().NodeID
	doc := f.graphql(`mutation($id: ID!, $body: String!) { addComment(input: {subjectId: $id, body: $body}) { commentEdge { node { databaseId body author { login } } } subject { id } } }`,
		map[string]any{"id": prID, "body": "hello"})
	if dig(t, doc, "data", "addComment", "commentEdge", "node", "body") != "hello" || dig(t, doc, "data", "addComment", "subject", "id") != prID {
		t.Fatalf("addComment = %v", doc)
	}
	doc = f.graphql(`mutation($t: ID!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $t, body: "done"}) { comment { body replyTo { databaseId } } } }`,
		map[string]any{"t": th.NodeID})
	if dig(t, doc, "data", "addPullRequestReviewThreadReply", "comment", "replyTo", "databaseId") != float64(th.Comments[0].ID) {
		t.Fatalf("reply = %v", doc)
	}
	doc = f.graphql(`mutation($t: ID!) { resolveReviewThread(input: {threadId: $t}) { thread { isResolved } } }`, map[string]any{"t": th.NodeID})
	if dig(t, doc, "data", "resolveReviewThread", "thread", "isResolved") != true || !f.pr.Threads()[0].Resolved {
		t.Fatalf("resolve = %v", doc)
	}
	f.pr.Update(func(p *PullRequest) { p.Draft = true })
	doc = f.graphql(`mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft } } }`, map[string]any{"id": prID})
	if dig(t, doc, "data", "markPullRequestReadyForReview", "pullRequest", "isDraft") != false || f.pr.Data().Draft {
		t.Fatalf("ready = %v", doc)
	}
	f.repo.SetBranch("next", shaC)
	doc = f.graphql(`mutation($r: ID!) { createPullRequest(input: {repositoryId: $r, baseRefName: "main", headRefName: "next", title: "Next"}) { pullRequest { number headRefOid url } } }`,
		map[string]any{"r": f.repo.NodeID()})
	if dig(t, doc, "data", "createPullRequest", "pullRequest", "url") != "https://github.com/acme/app/pull/8" ||
		dig(t, doc, "data", "createPullRequest", "pullRequest", "headRefOid") != shaC {
		t.Fatalf("create = %v", doc)
	}
	doc = f.graphql(`mutation { addComment(input: {subjectId: "nope", body: "x"}) { subject { id } } }`, nil)
	if dig(t, doc, "errors", 0, "type") != "NOT_FOUND" || dig(t, doc, "data", "addComment") != nil {
		t.Fatalf("bad id = %v", doc)
	}
}

func TestGraphQLNodeViewerAndRefs(t *testing.T) {
	f := newFixture(t)
	c := f.pr.AddComment(Comment{Body: "x"})
	doc := f.graphql(`query($id: ID!) { viewer { login databaseId } node(id: $id) { __typename ... on IssueComment { databaseId } }
  repository(owner: "acme", name: "app") { ref(qualifiedName: "refs/heads/topic") { name target { oid } } missing: ref(qualifiedName: "nope") { name }
    pullRequests(headRefName: "topic", states: [OPEN], first: 5) { nodes { number } } } }`, map[string]any{"id": c.NodeID})
	if errs, ok := doc["errors"]; ok {
		t.Fatalf("errors %v", errs)
	}
	d := dig(t, doc, "data")
	if dig(t, d, "viewer", "login") != "monalisa" || dig(t, d, "viewer", "databaseId") != 1001.0 {
		t.Errorf("viewer = %v", dig(t, d, "viewer"))
	}
	if dig(t, d, "node", "__typename") != "IssueComment" || dig(t, d, "node", "databaseId") != float64(c.ID) {
		t.Errorf("node = %v", dig(t, d, "node"))
	}
	if dig(t, d, "repository", "ref", "target", "oid") != shaB || dig(t, d, "repository", "missing") != nil {
		t.Errorf("refs = %v", dig(t, d, "repository"))
	}
	if dig(t, d, "repository", "pullRequests", "nodes", 0, "number") != 7.0 {
		t.Errorf("pullRequests = %v", dig(t, d, "repository", "pullRequests"))
	}
	closed := f.graphql(`{repository(owner:"acme",name:"app"){pullRequests(states:[CLOSED,MERGED],first:5){totalCount}}}`, nil)
	if dig(t, closed, "data", "repository", "pullRequests", "totalCount") != 0.0 {
		t.Errorf("closed = %v", closed)
	}
}

func TestPushReanchorsCommitIDButKeepsOriginal(t *testing.T) {
	f := newFixture(t)
	th, err := f.pr.AddThread(ThreadSpec{Root: ReviewComment{Author: CodexBot(), Body: "finding", Path: "a.go", Line: 3}})
	if err != nil {
		t.Fatal(err)
	}
	f.pr.Push(shaC)
	rc := f.pr.ReviewComments()[0]
	if rc.CommitID != shaC || rc.OriginalCommitID != shaB {
		t.Fatalf("after push commit_id=%s original=%s", rc.CommitID, rc.OriginalCommitID)
	}
	if f.pr.Data().HeadSHA != shaC {
		t.Fatalf("head = %s", f.pr.Data().HeadSHA)
	}
	f.pr.SetOutdated(th.NodeID, true)
	doc := f.graphql(`{repository(owner:"acme",name:"app"){pullRequest(number:7){headRefOid commits(first:5){totalCount} reviewThreads(first:1){nodes{isOutdated line originalLine}}}}}`, nil)
	pr := dig(t, doc, "data", "repository", "pullRequest")
	if dig(t, pr, "headRefOid") != shaC || dig(t, pr, "commits", "totalCount") != 2.0 {
		t.Errorf("pr = %v", pr)
	}
	if n := dig(t, pr, "reviewThreads", "nodes", 0); dig(t, n, "line") != nil || dig(t, n, "originalLine") != 3.0 || dig(t, n, "isOutdated") != true {
		t.Errorf("outdated thread = %v", n)
	}
}
