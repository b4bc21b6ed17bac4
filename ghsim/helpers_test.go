package ghsim

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

var testStart = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

const (
	testToken = "ghp_testtoken"
	shaA      = "1111111111111111111111111111111111111111"
	shaB      = "2222222222222222222222222222222222222222"
	shaC      = "3333333333333333333333333333333333333333"
)

type fixture struct {
	t     *testing.T
	s     *Server
	clock *ManualClock
	repo  *Repo
	pr    *PR
}

// newFixture starts a server with repo acme/app (main at shaA) and an open
// PR #7 from "topic" at shaB.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	clock := NewManualClock(testStart)
	s := New(Options{Clock: clock.Now})
	s.Start()
	t.Cleanup(s.Close)
	repo := s.AddRepo(RepoSpec{Owner: Account{Login: "acme", Type: TypeOrganization}, Name: "app"})
	repo.SetBranch("main", shaA)
	repo.SetBranch("topic", shaB)
	pr, err := repo.AddPR(PullRequest{Number: 7, Title: "Topic", Body: "Body", Head: "topic", Base: "main"})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, s: s, clock: clock, repo: repo, pr: pr}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (f *fixture) do(method, path string, body any, hdr ...string) response {
	f.t.Helper()
	return doRequest(f.t, f.s.URL(), method, path, body, hdr...)
}

func doRequest(t *testing.T, base, method, path string, body any, hdr ...string) response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	url := path
	if !strings.HasPrefix(path, "http") {
		url = base + path
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+testToken)
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

func (r response) json(t *testing.T) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, r.body)
	}
	return v
}

func (r response) object(t *testing.T) map[string]any {
	t.Helper()
	m, ok := r.json(t).(map[string]any)
	if !ok {
		t.Fatalf("body is not an object: %s", r.body)
	}
	return m
}

func (r response) list(t *testing.T) []any {
	t.Helper()
	l, ok := r.json(t).([]any)
	if !ok {
		t.Fatalf("body is not a list: %s", r.body)
	}
	return l
}

// graphql posts a query and returns the decoded response document.
func (f *fixture) graphql(query string, vars map[string]any) map[string]any {
	f.t.Helper()
	r := f.do("POST", "/graphql", map[string]any{"query": query, "variables": vars})
	if r.status != 200 {
		f.t.Fatalf("graphql status %d: %s", r.status, r.body)
	}
	return r.object(f.t)
}

// dig walks a decoded JSON document by keys and list indices.
func dig(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("dig %v: %q on non-object %T", path, k, v)
			}
			v, ok = m[k]
			if !ok {
				t.Fatalf("dig %v: no key %q in %v", path, k, keys(m))
			}
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("dig %v: index %d on %T (len %d)", path, k, v, len(l))
			}
			v = l[k]
		}
	}
	return v
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// orderedKeys returns an object's keys in document order.
func orderedKeys(t *testing.T, raw []byte, path ...string) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	var cur any
	if err := dec.Decode(&cur); err != nil {
		t.Fatal(err)
	}
	var sub json.RawMessage = raw
	for _, p := range path {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sub, &m); err != nil {
			t.Fatal(err)
		}
		sub = m[p]
	}
	dec = json.NewDecoder(bytes.NewReader(sub))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object at %v", path)
	}
	var out []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
