package loopback

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestOnlyLoopbackTargets(t *testing.T) {
	for _, ok := range []string{"http://127.0.0.1:8080", "http://[::1]:9", "https://localhost:443", "http://127.5.6.7"} {
		if _, err := New(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://10.0.0.1", "http://example.com", "ftp://127.0.0.1", "http://127.0.0.1.evil.com", "://"} {
		if _, err := New(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestRewritesSchemeAndHostKeepingPathAndHostHeader(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Host+" "+r.URL.RequestURI())
	}))
	defer srv.Close()
	lb, err := New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Transport: lb}).Get("https://api.github.com/repos/o/r/pulls?state=open")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "api.github.com /repos/o/r/pulls?state=open" {
		t.Fatalf("server saw %q", b)
	}
}
