package ghsim

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestETagAnd304(t *testing.T) {
	f := newFixture(t)
	first := f.do("GET", "/repos/acme/app/pulls/7", nil)
	etag := first.header.Get("ETag")
	if first.status != 200 || !strings.HasPrefix(etag, `W/"`) {
		t.Fatalf("status %d etag %q", first.status, etag)
	}
	remaining := first.header.Get("X-RateLimit-Remaining")

	again := f.do("GET", "/repos/acme/app/pulls/7", nil, "If-None-Match", etag)
	if again.status != 304 || len(again.body) != 0 {
		t.Fatalf("conditional GET: status %d body %q", again.status, again.body)
	}
	if again.header.Get("ETag") != etag {
		t.Errorf("304 ETag %q, want %q", again.header.Get("ETag"), etag)
	}
	if got := again.header.Get("X-RateLimit-Remaining"); got != remaining {
		t.Errorf("304 spent rate limit: remaining %s -> %s", remaining, got)
	}
	if st := f.s.Stats(); st.REST304 != 1 || st.REST != 2 {
		t.Errorf("stats REST=%d REST304=%d, want 2 and 1", st.REST, st.REST304)
	}

	// A change to the resource changes the validator.
	f.pr.Update(func(p *PullRequest) { p.Title = "Renamed" })
	changed := f.do("GET", "/repos/acme/app/pulls/7", nil, "If-None-Match", etag)
	if changed.status != 200 || changed.header.Get("ETag") == etag {
		t.Fatalf("after change: status %d etag %q", changed.status, changed.header.Get("ETag"))
	}
	n, _ := strconv.Atoi(remaining)
	if got := changed.header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(n-1) {
		t.Errorf("200 remaining %s, want %d", got, n-1)
	}
	// A list of validators matches any member.
	list := f.do("GET", "/repos/acme/app/pulls/7", nil, "If-None-Match", `"nope", `+changed.header.Get("ETag"))
	if list.status != 304 {
		t.Errorf("If-None-Match list: status %d", list.status)
	}
}

var linkRE = regexp.MustCompile(`<([^>]+)>; rel="(\w+)"`)

func links(h string) map[string]string {
	out := map[string]string{}
	for _, m := range linkRE.FindAllStringSubmatch(h, -1) {
		out[m[2]] = m[1]
	}
	return out
}

func TestLinkPaginationFollowsToTheEnd(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 7; i++ {
		f.pr.AddComment(Comment{Body: fmt.Sprintf("c%d", i)})
	}
	var bodies []string
	next := "/api/v3/repos/acme/app/issues/7/comments?per_page=3"
	pages := 0
	for next != "" {
		r := f.do("GET", next, nil)
		if r.status != 200 {
			t.Fatalf("status %d", r.status)
		}
		for _, c := range r.list(t) {
			bodies = append(bodies, dig(t, c, "body").(string))
		}
		l := links(r.header.Get("Link"))
		pages++
		if pages == 1 {
			if !strings.Contains(l["last"], "page=3") || !strings.HasPrefix(l["next"], f.s.URL()+"/api/v3/") {
				t.Errorf("first page links = %v", l)
			}
			if _, ok := l["prev"]; ok {
				t.Error("first page has rel=prev")
			}
		}
		if pages == 2 && (!strings.Contains(l["prev"], "page=1") || !strings.Contains(l["first"], "page=1")) {
			t.Errorf("middle page links = %v", l)
		}
		next = l["next"]
		if pages > 5 {
			t.Fatal("pagination does not end")
		}
	}
	if pages != 3 || strings.Join(bodies, ",") != "c0,c1,c2,c3,c4,c5,c6" {
		t.Fatalf("pages=%d bodies=%v", pages, bodies)
	}
}

func TestPerPageIsCappedAt100(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 105; i++ {
		f.pr.AddComment(Comment{Body: "x"})
	}
	r := f.do("GET", "/repos/acme/app/issues/7/comments?per_page=500", nil)
	if n := len(r.list(t)); n != 100 {
		t.Fatalf("got %d items, want 100", n)
	}
	if l := links(r.header.Get("Link")); !strings.Contains(l["last"], "page=2") {
		t.Errorf("links = %v", l)
	}
	def := f.do("GET", "/repos/acme/app/issues/7/comments", nil)
	if n := len(def.list(t)); n != 30 {
		t.Errorf("default page size %d, want 30", n)
	}
}

func TestAuthentication(t *testing.T) {
	f := newFixture(t)
	none := f.do("GET", "/user", nil, "Authorization", "")
	if none.status != 401 || dig(t, none.json(t), "message") != "Requires authentication" {
		t.Fatalf("no token: %d %s", none.status, none.body)
	}
	gql := f.do("POST", "/graphql", map[string]any{"query": "{viewer{login}}"}, "Authorization", "")
	if gql.status != 401 || !strings.Contains(string(gql.body), "requires you to be authenticated") {
		t.Fatalf("graphql no token: %d %s", gql.status, gql.body)
	}
	bearer := f.do("GET", "/user", nil, "Authorization", "Bearer anything")
	if bearer.status != 200 || dig(t, bearer.json(t), "login") != "monalisa" {
		t.Fatalf("bearer: %d %s", bearer.status, bearer.body)
	}
	other := f.s.AddToken("ghp_other", Account{Login: "hubot", Type: TypeUser})
	if got := dig(t, f.do("GET", "/user", nil, "Authorization", "token ghp_other").json(t), "id"); got != float64(other.ID) {
		t.Errorf("registered token is user %v, want %d", got, other.ID)
	}
	bad := f.do("GET", "/user", nil)
	if bad.status != 401 || dig(t, bad.json(t), "message") != "Bad credentials" {
		t.Fatalf("unregistered token once tokens exist: %d %s", bad.status, bad.body)
	}
	if st := f.s.Stats(); st.Unauthorized != 3 {
		t.Errorf("Unauthorized = %d, want 3", st.Unauthorized)
	}
}

func TestRateLimitHeadersAndSeparateGraphQLBucket(t *testing.T) {
	f := newFixture(t)
	r := f.do("GET", "/user", nil)
	h := r.header
	if h.Get("X-RateLimit-Limit") != "5000" || h.Get("X-RateLimit-Remaining") != "4999" || h.Get("X-RateLimit-Used") != "1" ||
		h.Get("X-RateLimit-Resource") != "core" {
		t.Fatalf("core headers: %v", h)
	}
	reset, _ := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
	if reset != testStart.Add(time.Hour).Unix() {
		t.Errorf("reset %d, want %d", reset, testStart.Add(time.Hour).Unix())
	}
	if h.Get("X-GitHub-Request-Id") == "" {
		t.Error("no X-GitHub-Request-Id")
	}
	doc := f.do("POST", "/graphql", map[string]any{"query": "{rateLimit{cost limit remaining used resetAt}}"})
	if doc.header.Get("X-RateLimit-Resource") != "graphql" || doc.header.Get("X-RateLimit-Remaining") != "4999" {
		t.Fatalf("graphql headers: %v", doc.header)
	}
	rl := dig(t, doc.json(t), "data", "rateLimit")
	if dig(t, rl, "cost") != 1.0 || dig(t, rl, "remaining") != 4999.0 || dig(t, rl, "used") != 1.0 ||
		dig(t, rl, "resetAt") != stamp(testStart.Add(time.Hour)) {
		t.Errorf("rateLimit = %v", rl)
	}
	if core := f.s.RateLimit(ResourceCore); core.Remaining != 4999 {
		t.Errorf("GraphQL spent core points: %+v", core)
	}
	if st := f.s.Stats(); st.GraphQL != 1 || st.GraphQLPoints != 1 || st.REST != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestPrimaryLimitExhaustionAndReset(t *testing.T) {
	f := newFixture(t)
	f.s.SetRateRemaining(ResourceCore, 0)
	r := f.do("GET", "/user", nil)
	if r.status != 403 || r.header.Get("X-RateLimit-Remaining") != "0" ||
		!strings.HasPrefix(dig(t, r.json(t), "message").(string), "API rate limit exceeded") {
		t.Fatalf("exhausted: %d %v %s", r.status, r.header, r.body)
	}
	g := f.do("POST", "/graphql", map[string]any{"query": "{viewer{login}}"})
	if g.status != 200 || dig(t, g.json(t), "data", "viewer", "login") != "monalisa" {
		t.Fatalf("graphql must not share the core bucket: %d %s", g.status, g.body)
	}
	f.s.SetRateRemaining(ResourceGraphQL, 0)
	g = f.do("POST", "/graphql", map[string]any{"query": "{viewer{login}}"})
	if dig(t, g.json(t), "errors", 0, "type") != "RATE_LIMITED" {
		t.Fatalf("graphql exhausted: %s", g.body)
	}
	f.clock.Advance(61 * time.Minute)
	if r := f.do("GET", "/user", nil); r.status != 200 || r.header.Get("X-RateLimit-Remaining") != "4999" {
		t.Fatalf("after reset: %d %v", r.status, r.header.Get("X-RateLimit-Remaining"))
	}
}

func TestUnknownRouteIsGitHubJSON404(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{"/repos/acme/app/nope", "/repos/acme/missing/pulls/1", "/repos/acme/app/pulls/99"} {
		r := f.do("GET", p, nil)
		if r.status != 404 || dig(t, r.json(t), "message") != "Not Found" || dig(t, r.json(t), "status") != "404" {
			t.Errorf("%s: %d %s", p, r.status, r.body)
		}
	}
	if r := f.do("GET", "/repos/acme/app/branches/nope", nil); r.status != 404 || dig(t, r.json(t), "message") != "Branch not found" {
		t.Errorf("missing branch: %d %s", r.status, r.body)
	}
}

func TestBranchNamesWithSlashesAndRefs(t *testing.T) {
	f := newFixture(t)
	f.repo.SetBranch("feature/deep/name", shaC)
	r := f.do("GET", "/repos/acme/app/branches/feature/deep/name", nil)
	if r.status != 200 || dig(t, r.json(t), "commit", "sha") != shaC {
		t.Fatalf("branch: %d %s", r.status, r.body)
	}
	ref := f.do("GET", "/repos/acme/app/git/ref/heads/feature/deep/name", nil)
	if ref.status != 200 || dig(t, ref.json(t), "ref") != "refs/heads/feature/deep/name" || dig(t, ref.json(t), "object", "sha") != shaC {
		t.Fatalf("ref: %d %s", ref.status, ref.body)
	}
}

func TestPullsListFilterAndCreateValidation(t *testing.T) {
	f := newFixture(t)
	l := f.do("GET", "/repos/acme/app/pulls?head=acme:topic&state=open", nil).list(t)
	if len(l) != 1 || dig(t, l[0], "number") != 7.0 {
		t.Fatalf("head filter: %v", l)
	}
	if l := f.do("GET", "/repos/acme/app/pulls?head=other:topic", nil).list(t); len(l) != 0 {
		t.Errorf("other owner matched: %v", l)
	}
	dup := f.do("POST", "/repos/acme/app/pulls", map[string]any{"title": "x", "head": "topic", "base": "main"})
	if dup.status != 422 || !strings.Contains(string(dup.body), "A pull request already exists for acme:topic.") {
		t.Fatalf("duplicate: %d %s", dup.status, dup.body)
	}
	missing := f.do("POST", "/repos/acme/app/pulls", map[string]any{"title": "x", "head": "nope", "base": "main"})
	if missing.status != 422 || dig(t, missing.json(t), "errors", 0, "field") != "head" {
		t.Fatalf("missing head: %d %s", missing.status, missing.body)
	}
	f.repo.SetBranch("next", shaC)
	created := f.do("POST", "/repos/acme/app/pulls", map[string]any{"title": "Next", "head": "acme:next", "base": "main", "draft": true})
	if created.status != 201 || dig(t, created.json(t), "number") != 8.0 || dig(t, created.json(t), "draft") != true {
		t.Fatalf("create: %d %s", created.status, created.body)
	}
}
