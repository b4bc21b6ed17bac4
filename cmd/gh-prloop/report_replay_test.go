package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghsim/testbed"
)

// What `report --replay` must conclude from each saved observation in
// testdata/replay (written by e2e's TestCodexRoundsReplay from simulator
// rounds). Replay reads no network and needs no token.
var replayWant = map[string]struct{ classification, reason, notice string }{
	"clean-by-reaction":       {"zero-findings", "zero-findings", ""},
	"clean-by-reaction-on-pr": {"zero-findings", "zero-findings", ""},
	"clean-comment":           {"zero-findings", "zero-findings", ""},
	"findings-review":         {"findings", "findings", ""},
	"findings-comment":        {"findings", "findings", ""},
	"notice-usage-limit":      {"ambiguous", "codex-notice", "usage-limit"},
	"notice-environment":      {"ambiguous", "codex-notice", "environment"},
	"notice-account":          {"ambiguous", "codex-notice", "account"},
	"notice-deactivated":      {"ambiguous", "codex-notice", "deactivated"},
	"notice-error":            {"ambiguous", "codex-notice", "error"},
	"failed-summary":          {"ambiguous", "codex-notice", "failed"},
	"silence":                 {"awaiting-response", "awaiting-response", ""},
	"human-quotes-notice":     {"awaiting-response", "awaiting-response", ""},
}

func TestReportReplayJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "replay", "*.json"))
	if len(files) != len(replayWant) {
		t.Fatalf("%d saved observations, %d expectations", len(files), len(replayWant))
	}
	t.Setenv("GH_TOKEN", "")
	t.Setenv("GITHUB_TOKEN", "")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		want, ok := replayWant[name]
		if !ok {
			t.Fatalf("no expectation for %s", f)
		}
		t.Run(name, func(t *testing.T) {
			stdout, stderr, code := run(t, "", "report", "--replay", f, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var doc struct {
				State struct {
					Mode string `json:"mode"`
				} `json:"state"`
				Result struct {
					Action, Classification, Reason string
				} `json:"result"`
				Notices []struct{ Kind string } `json:"notices"`
				Cost    struct {
					Requests         int `json:"requests"`
					RESTRemaining    int `json:"rest_remaining"`
					GraphQLRemaining int `json:"graphql_remaining"`
				} `json:"cost"`
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			if doc.Result.Action != "report" || doc.Result.Classification != want.classification || doc.Result.Reason != want.reason || doc.State.Mode != "report-only" {
				t.Fatalf("result %+v, want report %s/%s", doc.Result, want.classification, want.reason)
			}
			found := want.notice == ""
			for _, n := range doc.Notices {
				found = found || n.Kind == want.notice
			}
			if !found {
				t.Errorf("notices %+v, want a %s notice", doc.Notices, want.notice)
			}
			if doc.Cost.Requests != 0 {
				t.Errorf("a replay made %d requests", doc.Cost.Requests)
			}
			// Nothing was asked of GitHub: its budgets are unknown, not 0.
			if doc.Cost.RESTRemaining != -1 || doc.Cost.GraphQLRemaining != -1 {
				t.Errorf("a replay reports budgets left: %+v", doc.Cost)
			}
		})
	}
}

// Without --json and without a terminal, replay prints the same plain
// report as a live one.
func TestReportReplayPlain(t *testing.T) {
	stdout, stderr, code := run(t, "", "report", "--replay", filepath.Join("testdata", "replay", "clean-by-reaction.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"octo-org/widgets", "zero-findings"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plain output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, " left") {
		t.Errorf("a replay claims rate-limit budgets left:\n%s", stdout)
	}
}

func TestReportSaveAndReplayRefuseBadUse(t *testing.T) {
	good := filepath.Join("testdata", "replay", "silence.json")
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	raw, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"with a PR", []string{"report", "42", "--replay", good}, 2, "takes no pull request argument"},
		{"with watch", []string{"report", "--replay", good, "--watch=5"}, 2, "--watch"},
		{"with save", []string{"report", "--replay", good, "--save-observation", filepath.Join(dir, "x.json")}, 2, "--save-observation"},
		{"missing file", []string{"report", "--replay", filepath.Join(dir, "nope.json")}, 2, "no such file"},
		{"not json", []string{"report", "--replay", write("a.json", "hello")}, 2, "syntax"},
		{"other format", []string{"report", "--replay", write("b.json", strings.Replace(string(raw), `"gh-prloop-observation"`, `"something-else"`, 1))}, 2, "/format: format"},
		{"newer version", []string{"report", "--replay", write("c.json", strings.Replace(string(raw), `"version": 1`, `"version": 2`, 1))}, 2, "/version: version"},
		{"unknown field", []string{"report", "--replay", write("d.json", strings.Replace(string(raw), `"viewer_id"`, `"extra": 1, "viewer_id"`, 1))}, 2, "unknown-field"},
		{"missing field", []string{"report", "--replay", write("e.json", strings.Replace(string(raw), `"checks_read"`, `"checks_read_x"`, 1))}, 2, "unknown-field"},
		{"null list", []string{"report", "--replay", write("f.json", strings.Replace(string(raw), `"check_runs": []`, `"check_runs": null`, 1))}, 2, "/observation/check_runs: invalid-value"},
		{"bad id type", []string{"report", "--replay", write("g.json", strings.Replace(string(raw), `"viewer_id": 1001`, `"viewer_id": "1001"`, 1))}, 2, "/observation/viewer_id: invalid-value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(t, "", tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.msg) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, tc.code, tc.msg)
			}
		})
	}
}

// --save-observation writes what the live report classified; replaying the
// file gives the same state and result.
func TestReportSaveObservationThenReplay(t *testing.T) {
	bed := newPlanTestBed(t)
	pr, err := bed.OpenPR("Add a retry budget", "body")
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(t.TempDir(), "obs.json")
	var out, errOut bytes.Buffer
	live, stderr, code := runPlanTestCLI(t, reportTestRoot(bed, &out, &errOut), &out, &errOut,
		"report", strconv.Itoa(pr.Number()), "--repo", testbed.Repository, "--json", "--save-observation", saved)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	replayed, stderr, code := run(t, "", "report", "--replay", saved, "--json")
	if code != 0 {
		t.Fatalf("replay exit %d: %s", code, stderr)
	}
	pick := func(s string) (state, result json.RawMessage) {
		var doc struct {
			State  json.RawMessage `json:"state"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(s), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.State, doc.Result
	}
	ls, lr := pick(live)
	rs, rr := pick(replayed)
	if !bytes.Equal(ls, rs) || !bytes.Equal(lr, rr) {
		t.Fatalf("replay differs from the live report:\n%s\n%s\n%s\n%s", ls, rs, lr, rr)
	}
}
