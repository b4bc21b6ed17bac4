package testbed_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghsim/testbed"
)

// A REST merge on the bed is a real merge in the git server: the base
// branch moves to a merge commit whose parents are the old base and the
// PR's head, ls-remote and the simulator agree, and the PR is merged.
func TestRESTMergeMovesTheGitBase(t *testing.T) {
	b := newBed(t)
	ctx := context.Background()
	pr, err := b.OpenPR("Add a retry budget", "")
	if err != nil {
		t.Fatal(err)
	}
	// The base moves on after the PR was opened, so the merge is a real one.
	base0, err := b.PushBase(ctx, "Bump", map[string]string{"VERSION": "2\n"})
	if err != nil {
		t.Fatal(err)
	}
	head := pr.Data().HeadSHA
	req, _ := http.NewRequest("PUT", b.Sim.URL()+"/repos/"+testbed.Repository+"/pulls/1/merge", strings.NewReader(`{"sha":"`+head+`"}`))
	req.Header.Set("Authorization", "token "+testbed.APIToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		SHA    string `json:"sha"`
		Merged bool   `json:"merged"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 || !out.Merged {
		t.Fatalf("merge: %d %+v %v", resp.StatusCode, out, err)
	}
	parents, err := b.Setup(b.GitServer.RepoDir(testbed.Owner, testbed.Name), "rev-list", "--parents", "-n1", out.SHA)
	if err != nil || parents != out.SHA+" "+base0+" "+head {
		t.Fatalf("merge commit parents %q (%v), want %s %s", parents, err, base0, head)
	}
	ls, err := b.Runner.Run(ctx, b.Checkout, "ls-remote", "origin", "refs/heads/"+testbed.BaseBranch)
	if err != nil || !strings.HasPrefix(string(ls), out.SHA) {
		t.Fatalf("ls-remote %q %v, want %s", ls, err, out.SHA)
	}
	if got, _ := b.Repo.Branch(testbed.BaseBranch); got != out.SHA {
		t.Fatalf("simulator main %s, merged %s", got, out.SHA)
	}
	if d := pr.Data(); !d.Merged || d.State != "closed" {
		t.Fatalf("PR after merge: %+v", d)
	}
}
