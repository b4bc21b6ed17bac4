package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/spf13/cobra"
)

// reportTestRoot is the production root command with `report` built on the
// test bed's client.
func reportTestRoot(bed *testbed.Bed, out, errOut *bytes.Buffer) *cobra.Command {
	root := newRootCmd(strings.NewReader(""), out, errOut)
	for _, c := range root.Commands() {
		if c.Name() == "report" {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(newReportCmd(func(*cobra.Command) (*ghclient.Client, error) { return bed.Client, nil }))
	return root
}

// Without an argument, report finds the open PR of the checked-out branch,
// as `gh pr view` does; with none open it says so and exits 2.
func TestReportWithoutArgumentUsesTheCurrentBranchPR(t *testing.T) {
	bed := newPlanTestBed(t)
	t.Chdir(bed.Checkout)

	var out, errOut bytes.Buffer
	_, stderr, code := runPlanTestCLI(t, reportTestRoot(bed, &out, &errOut), &out, &errOut, "report", "--json", "--repo", testbed.Repository)
	if code != 2 || !strings.Contains(stderr, "no open pull request for branch") {
		t.Fatalf("with no PR open: exit %d, stderr %q", code, stderr)
	}

	pr, err := bed.OpenPR("Add a retry budget", "body")
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errOut.Reset()
	stdout, stderr, code := runPlanTestCLI(t, reportTestRoot(bed, &out, &errOut), &out, &errOut, "report", "--json", "--repo", testbed.Repository)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		State struct {
			PR struct {
				Number int `json:"number"`
			} `json:"pr"`
		} `json:"state"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.State.PR.Number != pr.Number() {
		t.Fatalf("report chose PR #%d, want #%d", doc.State.PR.Number, pr.Number())
	}
}

func TestReportRefusesANonPositiveWatch(t *testing.T) {
	for _, v := range []string{"--watch=0", "--watch=-5"} {
		_, stderr, code := run(t, "", "report", "7", "--repo", "octo-org/widgets", v)
		if code != 2 || !strings.Contains(stderr, "positive number of seconds") {
			t.Fatalf("%s: exit %d, stderr %q", v, code, stderr)
		}
	}
}
