package ghsim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

// A fault "after" lets the write land and then hides the answer: the
// comment exists although the client saw a 502 (or no answer at all).
func TestFaultAfterDeliveryAppliesTheWrite(t *testing.T) {
	f := newFixture(t)
	f.s.InjectFault(Fault{Kind: FaultStatusAfter, Match: Match{Method: "POST", Path: "/repos/*/*/issues/*/comments"}})
	r := f.do("POST", "/repos/acme/app/issues/7/comments", map[string]string{"body": "one"})
	if r.status != http.StatusBadGateway {
		t.Fatalf("status %d, want 502", r.status)
	}
	if n := len(f.pr.Comments()); n != 1 {
		t.Fatalf("%d comments after a 5xx-after-delivery, want 1", n)
	}

	f.s.InjectFault(Fault{Kind: FaultDropAfter, Match: Match{Method: "POST", Path: "/repos/*/*/issues/*/comments"}})
	req, _ := http.NewRequest("POST", f.s.URL()+"/repos/acme/app/issues/7/comments", jsonBody(t, map[string]string{"body": "two"}))
	req.Header.Set("Authorization", "token "+testToken)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("dropped connection answered %d", resp.StatusCode)
	}
	if n := len(f.pr.Comments()); n != 2 {
		t.Fatalf("%d comments after a drop-after-delivery, want 2", n)
	}
}

func jsonBody(t *testing.T, v any) *bytes.Reader {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b)
}
