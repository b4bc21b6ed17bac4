package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
)

// hostileServerText is what a hostile or broken server can put in a header
// or an error message: C1 controls (NEL, CSI), a bidi override, a zero-width
// space and a C1-introduced escape sequence that would clear the screen.
const hostileServerText = "core\u0085\u202egnp.exe\u200b\u009b2J\u009d0;pwned\u009c"

// assertInert fails when s carries anything a terminal would interpret or a
// reader could not see: C0/C1 controls (the newline excepted), DEL, ESC and
// Unicode format characters (bidi, zero-width).
func assertInert(t *testing.T, what, s string) {
	t.Helper()
	for _, r := range s {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || unicode.Is(unicode.Cf, r) {
			t.Fatalf("%s carries %U: %q", what, r, s)
		}
	}
}

// TestServerTextInWaitNoticesIsSanitized: every wait notice quotes the
// server (the X-RateLimit-Resource header of a rate limit, the message of a
// failed GraphQL query); what the client announces is inert and says the
// wait once.
func TestServerTextInWaitNoticesIsSanitized(t *testing.T) {
	e := newEnv(t, patient)
	e.sim.InjectFault(ghsim.Fault{Kind: ghsim.FaultPrimaryLimit, Status: 429, Match: onGraphQL,
		Header: map[string]string{"X-RateLimit-Resource": hostileServerText}})
	e.sim.InjectFault(ghsim.Fault{Kind: ghsim.FaultGraphQLError, Match: onGraphQL,
		Message: "Something went wrong " + hostileServerText})
	if _, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR); err != nil {
		t.Fatal(err)
	}
	reasons := e.waitReasons()
	if len(reasons) != 2 {
		t.Fatalf("want a notice per fault, got %q", reasons)
	}
	for _, r := range reasons {
		assertInert(t, "wait notice", r)
		if strings.Count(r, "waiting") != 1 {
			t.Errorf("notice says the wait %d times: %q", strings.Count(r, "waiting"), r)
		}
	}
	if !strings.Contains(reasons[0], "coregnp.exe") || !strings.Contains(reasons[1], "Something went wrong core") {
		t.Errorf("the server's words must still be shown, made inert: %+q", reasons)
	}
}

// TestServerTextInTheDebugLogIsSanitized: GH_DEBUG=api logs response
// headers and bodies to stderr; they are server text like any other.
func TestServerTextInTheDebugLogIsSanitized(t *testing.T) {
	var log bytes.Buffer
	e := newEnv(t, patient, func(o *ghclient.Options) { o.Log, o.LogVerbose = &log, true })
	e.sim.InjectFault(ghsim.Fault{Kind: ghsim.FaultGraphQLError, Match: onGraphQL,
		Message: "boom \x1b]52;c;ZXZpbA==\x07 " + hostileServerText})
	if _, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "boom") {
		t.Fatalf("the log does not show the failed answer:\n%s", log.String())
	}
	assertInert(t, "debug log", strings.ReplaceAll(log.String(), "\t", " "))
}
