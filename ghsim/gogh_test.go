package ghsim

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"testing"

	"github.com/cli/go-gh/v2/pkg/api"
)

// These tests drive the simulator with go-gh exactly as ghclient does, to
// prove the wire contract holds for the production client library.

func goghOptions(s *Server, host string) api.ClientOptions {
	return api.ClientOptions{Host: host, AuthToken: "ghp_gogh", Transport: s.Transport(), LogIgnoreEnv: true, CacheDir: "/nonexistent"}
}

var nextLink = regexp.MustCompile(`<([^>]+)>; rel="next"`)

func TestGoGHRESTFollowsLinksWithAuth(t *testing.T) {
	for _, host := range []string{"github.com", "ghe.example.com"} {
		t.Run(host, func(t *testing.T) {
			f := newFixture(t)
			for i := 0; i < 5; i++ {
				f.pr.AddComment(Comment{Body: "c"})
			}
			client, err := api.NewRESTClient(goghOptions(f.s, host))
			if err != nil {
				t.Fatal(err)
			}
			path := "repos/acme/app/issues/7/comments?per_page=2"
			total, pages := 0, 0
			for path != "" {
				resp, err := client.Request("GET", path, nil)
				if err != nil {
					t.Fatalf("page %d: %v", pages+1, err)
				}
				var items []map[string]any
				err = json.NewDecoder(resp.Body).Decode(&items)
				resp.Body.Close()
				if err != nil {
					t.Fatal(err)
				}
				total += len(items)
				pages++
				path = ""
				if m := nextLink.FindStringSubmatch(resp.Header.Get("Link")); m != nil {
					path = m[1]
					want := "https://api.github.com/repos/"
					if host != "github.com" {
						want = "https://" + host + "/api/v3/repos/"
					}
					if len(path) < len(want) || path[:len(want)] != want {
						t.Fatalf("next link %q does not name the client's host", path)
					}
				}
			}
			if total != 5 || pages != 3 {
				t.Fatalf("total=%d pages=%d", total, pages)
			}
		})
	}
}

func TestGoGHErrorsDecode(t *testing.T) {
	f := newFixture(t)
	rest, err := api.NewRESTClient(goghOptions(f.s, "github.com"))
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	err = rest.Get("repos/acme/app/pulls/99", &out)
	var he *api.HTTPError
	if !errors.As(err, &he) || he.StatusCode != 404 || he.Message != "Not Found" {
		t.Fatalf("REST 404 = %#v", err)
	}
	gql, err := api.NewGraphQLClient(goghOptions(f.s, "github.com"))
	if err != nil {
		t.Fatal(err)
	}
	err = gql.Do(prQuery, map[string]any{"owner": "acme", "name": "app", "number": 99}, &out)
	var ge *api.GraphQLError
	if !errors.As(err, &ge) || len(ge.Errors) != 1 || ge.Errors[0].Type != "NOT_FOUND" || !ge.Match("NOT_FOUND", "repository.pullRequest") {
		t.Fatalf("GraphQL error = %#v", err)
	}
	var ok struct {
		Repository struct {
			PullRequest struct {
				Number     int
				HeadRefOid string
			}
		}
	}
	if err := gql.Do(prQuery, prVars(), &ok); err != nil || ok.Repository.PullRequest.HeadRefOid != shaB {
		t.Fatalf("GraphQL = %+v, %v", ok, err)
	}
}

func TestGoGHConditionalRequestThroughHTTPClient(t *testing.T) {
	f := newFixture(t)
	hc, err := api.NewHTTPClient(goghOptions(f.s, "github.com"))
	if err != nil {
		t.Fatal(err)
	}
	get := func(etag string) *http.Response {
		req, _ := http.NewRequest("GET", "https://api.github.com/repos/acme/app/pulls/7", nil)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	first := get("")
	if first.StatusCode != 200 {
		t.Fatalf("status %d", first.StatusCode)
	}
	if second := get(first.Header.Get("ETag")); second.StatusCode != 304 {
		t.Fatalf("conditional status %d", second.StatusCode)
	}
	if st := f.s.Stats(); st.REST304 != 1 {
		t.Errorf("REST304 = %d", st.REST304)
	}
	// go-gh's REST client posts JSON bodies as the API expects.
	rest, _ := api.NewRESTClient(goghOptions(f.s, "github.com"))
	var created map[string]any
	if err := rest.Post("repos/acme/app/issues/7/comments", bytes.NewBufferString(`{"body":"hi"}`), &created); err != nil || created["body"] != "hi" {
		t.Fatalf("post = %v %v", created, err)
	}
}
