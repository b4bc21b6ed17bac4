package ghclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghclient/loopback"
)

func TestNoTokenIsErrNoToken(t *testing.T) {
	isolateGH(t)
	for host, want := range map[string]string{
		"github.com":      "not logged in to github.com. Run `gh auth login` or set GH_TOKEN.",
		"ghe.example.com": "not logged in to ghe.example.com. Run `gh auth login` or set GH_ENTERPRISE_TOKEN.",
	} {
		_, err := New(Options{Host: host})
		var nt *NoTokenError
		if !errors.Is(err, ErrNoToken) || !errors.As(err, &nt) || nt.Host != host || err.Error() != want {
			t.Errorf("%s: err %v", host, err)
		}
	}
}

// authEcho records the Authorization header each request carried.
func authEcho(seen *[]string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*seen = append(*seen, r.Host+" "+r.Header.Get("Authorization"))
		writeJSON(w, 200, userJSON)
	})
}

func newResolvedClient(t *testing.T, h http.Handler, host string) *Client {
	t.Helper()
	srv := newLoopbackServer(t, h)
	c, err := New(Options{Host: host, BaseTransport: srv})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newLoopbackServer(t *testing.T, h http.Handler) http.RoundTripper {
	t.Helper()
	s := httptestServer(t, h)
	lb, err := loopback.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return lb
}

func TestTokenAndHostResolveLikeGh(t *testing.T) {
	var seen []string
	isolateGH(t)
	t.Setenv("GH_TOKEN", "env-token")
	c := newResolvedClient(t, authEcho(&seen), "")
	if c.Host() != "github.com" {
		t.Fatalf("default host %q", c.Host())
	}
	if _, _, err := c.Viewer(context.Background()); err != nil {
		t.Fatal(err)
	}

	// GH_HOST picks the host; an enterprise host reads GH_ENTERPRISE_TOKEN.
	t.Setenv("GH_HOST", "ghe.example.com")
	t.Setenv("GH_ENTERPRISE_TOKEN", "ghe-token")
	c = newResolvedClient(t, authEcho(&seen), "")
	if c.Host() != "ghe.example.com" {
		t.Fatalf("GH_HOST ignored: %q", c.Host())
	}
	if _, _, err := c.Viewer(context.Background()); err != nil {
		t.Fatal(err)
	}

	want := []string{"api.github.com token env-token", "ghe.example.com token ghe-token"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Fatalf("requests %q, want %q", seen, want)
	}
}

// go-gh reads hosts.yml once per process, so this runs in a child process
// with its own configuration directory.
func TestTokenFromHostsFile(t *testing.T) {
	if os.Getenv("GHCLIENT_HOSTS_CHILD") == "1" {
		var seen []string
		c := newResolvedClient(t, authEcho(&seen), "")
		if _, _, err := c.Viewer(context.Background()); err != nil {
			t.Fatal(err)
		}
		if c.Host() != "ghe.example.com" || len(seen) != 1 || seen[0] != "ghe.example.com token file-token" {
			t.Fatalf("host %q requests %q", c.Host(), seen)
		}
		return
	}
	dir := t.TempDir()
	hosts := "ghe.example.com:\n    oauth_token: file-token\n    user: me\n"
	if err := os.WriteFile(filepath.Join(dir, "hosts.yml"), []byte(hosts), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTokenFromHostsFile$", "-test.v")
	cmd.Env = append(os.Environ(), "GHCLIENT_HOSTS_CHILD=1", "GH_CONFIG_DIR="+dir, "GH_TOKEN=", "GITHUB_TOKEN=",
		"GH_ENTERPRISE_TOKEN=", "GITHUB_ENTERPRISE_TOKEN=", "GH_HOST=", "GH_PATH=/nonexistent/gh")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestTokenFromHostsFile") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func TestTokenNeverAppearsInErrorsOrLogs(t *testing.T) {
	// A hostile server echoes the Authorization header everywhere it can.
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		switch {
		case r.URL.Path == "/graphql":
			writeJSON(w, 200, fmt.Sprintf(`{"errors":[{"message":"bad credentials %s"}]}`, auth))
		case r.URL.Path == "/user":
			w.Header().Set("X-Echo", auth)
			writeJSON(w, 401, fmt.Sprintf(`{"message":"Bad credentials: %s"}`, auth))
		case r.Method == http.MethodPost:
			writeJSON(w, 422, fmt.Sprintf(`{"message":"Validation Failed","errors":[{"message":"%s"}]}`, auth))
		default:
			writeJSON(w, 503, fmt.Sprintf(`{"message":"%s"}`, auth))
		}
	})
	var log bytes.Buffer
	var reasons []string
	c, _ := newTestClient(t, h, func(o *Options) {
		o.Log, o.LogVerbose = &log, true
		o.MaxAttempts = 2
		o.OnWait = func(r string, d time.Duration) { reasons = append(reasons, r) }
	})
	ctx := context.Background()
	var errs []error
	_, _, err := c.Viewer(ctx)
	errs = append(errs, err)
	_, _, err = c.ObservePR(ctx, octoHello, 7)
	errs = append(errs, err)
	_, err = c.PostComment(ctx, octoHello, 7, "x")
	errs = append(errs, err)
	_, _, err = c.CheckRuns(ctx, octoHello, "abc")
	errs = append(errs, err)
	errs = append(errs, c.ResolveThread(ctx, "T"))
	for i, err := range errs {
		if err == nil {
			t.Fatalf("call %d succeeded against a hostile server", i)
		}
		if strings.Contains(err.Error(), testToken) {
			t.Errorf("call %d: token in error: %v", i, err)
		}
		if !strings.Contains(err.Error(), "[REDACTED]") && i != 3 {
			t.Errorf("call %d: echoed token not visibly masked: %v", i, err)
		}
	}
	if log.Len() == 0 || !strings.Contains(log.String(), "/graphql") {
		t.Fatalf("verbose log empty or incomplete:\n%s", log.String())
	}
	if strings.Contains(log.String(), testToken) {
		t.Errorf("token in debug log:\n%s", log.String())
	}
	if strings.Contains(strings.Join(reasons, "\n"), testToken) {
		t.Error("token in OnWait reasons")
	}
}

func TestRedactingWriterNeverSplitsAToken(t *testing.T) {
	var out bytes.Buffer
	w := newRedactingWriter(&out, "SECRET")
	for _, chunk := range []string{"a SEC", "RET b\nc S", "ECRET", "\n", strings.Repeat("x", maxHeld+1), "SECR", "ET\n"} {
		w.Write([]byte(chunk))
	}
	if strings.Contains(out.String(), "SECRET") || strings.Count(out.String(), "[REDACTED]") != 3 {
		t.Fatalf("output %q", out.String()[:40])
	}
}
