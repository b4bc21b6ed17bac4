package ghclient

import (
	"testing"
)

func TestParsePRURL(t *testing.T) {
	good := map[string]PRRef{
		"https://github.com/octo/hello/pull/7":                {Host: "github.com", Repo: Repo{"octo", "hello"}, Number: 7},
		"https://github.com/octo/hello/pull/7/files?x=1#frag": {Host: "github.com", Repo: Repo{"octo", "hello"}, Number: 7},
		" https://GHE.example.com/Org-1/re.po_x/pull/123/ ":   {Host: "ghe.example.com", Repo: Repo{"Org-1", "re.po_x"}, Number: 123},
	}
	for in, want := range good {
		got, err := ParsePRURL(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v %v", in, got, err)
		}
	}
	for _, bad := range []string{
		"http://github.com/octo/hello/pull/7",
		"https://github.com/octo/hello/issues/7",
		"https://github.com/octo/hello/pull/0",
		"https://github.com/octo/hello/pull/07",
		"https://github.com/octo/hello/pull/-7",
		"https://github.com/octo/hello/pull/x",
		"https://github.com/octo/hello/pull/99999999999999999999",
		"https://github.com/octo/hello.git/pull/7",
		"https://github.com/-octo/hello/pull/7",
		"https://user:pw@github.com/octo/hello/pull/7",
		"https://github.com/octo/pull/7",
		"github.com/octo/hello/pull/7",
	} {
		if got, err := ParsePRURL(bad); err == nil {
			t.Errorf("%q accepted as %+v", bad, got)
		}
	}
}

func TestResolvePRURLIsHostAware(t *testing.T) {
	c := &Client{host: "github.com"}
	if r, n, err := c.ResolvePRURL("https://www.github.com/octo/hello/pull/3"); err != nil || r != (Repo{"octo", "hello"}) || n != 3 {
		t.Fatalf("%v %d %v", r, n, err)
	}
	if _, _, err := c.ResolvePRURL("https://ghe.example.com/octo/hello/pull/3"); err == nil {
		t.Fatal("URL on another host accepted")
	}
	e := &Client{host: "ghe.example.com"}
	if _, _, err := e.ResolvePRURL("https://GHE.EXAMPLE.COM/octo/hello/pull/3"); err != nil {
		t.Fatal(err)
	}
}

func TestParseRepoAndPaths(t *testing.T) {
	r, err := ParseRepo("Octo/Hello")
	if err != nil || r.Lower() != "octo/hello" || r.String() != "Octo/Hello" {
		t.Fatalf("%v %v", r, err)
	}
	for _, bad := range []string{"octo", "octo/", "/hello", "octo/hel lo", "octo/..", "a/b/c"} {
		if _, err := ParseRepo(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if p := r.path("git", "ref", "heads", "feat/ü x?"); p != "repos/Octo/Hello/git/ref/heads/feat/%C3%BC%20x%3F" {
		t.Fatalf("path %q", p)
	}
}

func TestRESTPathPrefixPerHost(t *testing.T) {
	for host, want := range map[string]string{"github.com": "/", "api.github.com": "/", "ghe.example.com": "/api/v3/", "acme.ghe.com": "/", "github.localhost": "/"} {
		if got := restPathPrefix(host); got != want {
			t.Errorf("%s: %q want %q", host, got, want)
		}
	}
}
