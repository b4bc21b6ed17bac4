package standalone_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/ghsim/gitserver"
	"github.com/prloop/gh-prloop/ghsim/standalone"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/simenv"
)

func getState(t *testing.T, apiURL string) (ghsim.State, map[string]json.RawMessage) {
	t.Helper()
	resp, err := http.Get(apiURL + ghsim.StatePath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", ghsim.StatePath, resp.Status)
	}
	var raw map[string]json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(raw)
	var st ghsim.State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st, raw
}

// The world an outside script sees: /_sim/state lists every side effect,
// including each push with ref, old and new SHA — one of them over git's
// 1 MiB http.postBuffer, so sent chunked.
func TestStateShowsTheWorldAndEveryPush(t *testing.T) {
	ctx := context.Background()
	sim, err := standalone.Start(ctx, standalone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	info := sim.Info()

	st, raw := getState(t, info.APIURL)
	for _, k := range []string{"pulls", "issue_comments", "reviews", "review_comments", "pushes", "threads"} {
		if !strings.HasPrefix(string(raw[k]), "[") {
			t.Errorf("state %q is %s, want an array", k, raw[k])
		}
	}
	if len(st.Pulls) != 0 || len(st.IssueComments) != 0 {
		t.Fatalf("a fresh world has pulls %d comments %d", len(st.Pulls), len(st.IssueComments))
	}
	// Seeding pushed main, then the head branch: both created.
	if len(st.Pushes) != 2 || st.Pushes[0].Ref != "refs/heads/main" || st.Pushes[1].Ref != "refs/heads/"+testbed.HeadBranch ||
		st.Pushes[1].Old != gitserver.ZeroSHA {
		t.Fatalf("pushes %+v", st.Pushes)
	}
	oldHead := st.Pushes[1].New

	bed := sim.Bed
	blob := make([]byte, 3<<20)
	if _, err := rand.Read(blob); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(info.Checkout, "big.bin"), blob, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := bed.Setup(info.Checkout, "add", "big.bin"); err != nil {
		t.Fatal(err)
	}
	if _, err := bed.Setup(info.Checkout, "commit", "-q", "-m", "big"); err != nil {
		t.Fatal(err)
	}
	newHead, _ := bed.Setup(info.Checkout, "rev-parse", "HEAD")
	if _, err := bed.Runner.Run(ctx, info.Checkout, "push", "-q", "origin", "HEAD:refs/heads/"+testbed.HeadBranch); err != nil {
		t.Fatalf("push of a 3 MiB commit: %v", err)
	}
	if bed.GitServer.ChunkedPushes() == 0 {
		t.Fatal("the push was not chunked")
	}
	pr, err := bed.OpenPR("Title", "Body")
	if err != nil {
		t.Fatal(err)
	}
	pr.AddComment(ghsim.Comment{Author: bed.Viewer, Body: "@codex review"})

	st, _ = getState(t, info.APIURL)
	last := st.Pushes[len(st.Pushes)-1]
	if len(st.Pushes) != 3 || last.Ref != "refs/heads/"+testbed.HeadBranch || last.Old != oldHead || last.New != newHead {
		t.Fatalf("after the push: %+v, want %s %s..%s", st.Pushes, testbed.HeadBranch, oldHead, newHead)
	}
	if len(st.Pulls) != 1 || st.Pulls[0].HeadSHA != newHead || st.Pulls[0].Repository != testbed.Repository {
		t.Fatalf("pulls %+v", st.Pulls)
	}
	if len(st.IssueComments) != 1 || st.IssueComments[0].Body != "@codex review" || st.IssueComments[0].Author != bed.Viewer.Login {
		t.Fatalf("comments %+v", st.IssueComments)
	}
}

func TestInfoIsAValidHookAndCloseRemovesTheWorld(t *testing.T) {
	sim, err := standalone.Start(context.Background(), standalone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	info := sim.Info()
	h, err := simenv.FromEnv(func(k string) string { return info.Env[k] })
	if err != nil || h == nil {
		t.Fatalf("Info.Env is not a hook: %v", err)
	}
	if h.APIURL != info.APIURL || h.Token != info.Token || h.CAFile != info.CAFile || !strings.Contains(info.GitURL, h.GitHost) {
		t.Fatalf("hook %+v disagrees with info %+v", h, info)
	}
	if _, err := os.Stat(filepath.Join(info.Checkout, ".git")); err != nil {
		t.Fatalf("checkout: %v", err)
	}
	sim.Close()
	if _, err := os.Stat(info.Checkout); !os.IsNotExist(err) {
		t.Fatalf("checkout still there after Close: %v", err)
	}
	if _, err := http.Get(info.APIURL + ghsim.StatePath); err == nil {
		t.Fatal("simulator still answers after Close")
	}
}

// A world that cannot be built is an error, never a panic in its cleanup.
func TestStartThatFailsCleansUpWithoutPanicking(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "absent")
	s, err := standalone.Start(context.Background(), standalone.Options{Dir: missing})
	if err == nil || s != nil {
		t.Fatalf("Start in a missing directory: %v, %v", s, err)
	}
}
