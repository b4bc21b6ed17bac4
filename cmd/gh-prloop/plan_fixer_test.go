package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/loop/initial"
	"github.com/prloop/gh-prloop/loop/wakeup"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/statestore"
)

// `plan --mode autonomous` without --fixer is refused like `start`: a
// usage error (exit 2) naming --fixer, before any network or git; so is a
// --fixer that does not split into words.
func TestPlanAutonomousWithoutFixerIsAUsageError(t *testing.T) {
	env := planEnv{
		client: func(*cobra.Command) (*ghclient.Client, error) {
			t.Error("plan reached for GitHub before refusing")
			return nil, os.ErrInvalid
		},
		git: func() (*gitx.Runner, error) {
			t.Error("plan reached for git before refusing")
			return nil, os.ErrInvalid
		},
	}
	for _, args := range [][]string{
		{"plan", "--mode", "autonomous", "--title", "t"},
		{"plan", "--mode", "autonomous", "--title", "t", "--json"},
		{"plan", "--mode", "autonomous", "--title", "t", "--fixer", "fix 'unterminated"},
		{"plan", "--mode", "autonomous", "--title", "t", "--fixer", "   "},
		{"plan", "--title", "t", "--fixer", "fix 'unterminated"},
	} {
		var out, errOut bytes.Buffer
		_, stderr, code := runPlanTestCLI(t, planTestRoot(env, nil, &out, &errOut), &out, &errOut, args...)
		if code != 2 || !strings.Contains(stderr, "--fixer") {
			t.Errorf("%q: exit %d, stderr %q; want 2 naming --fixer", args, code, stderr)
		}
	}
}

// What `plan` records when the hash is typed: the approval and the run's
// fixer, split like a shell line and stored exactly as `start --fixer`
// stores it (the run's fixer file, which the loop's first wakeup copies
// into the checkpoint). Without --fixer nothing but the approval is
// recorded.
func TestPlanRecordsTheFixerWithTheApproval(t *testing.T) {
	bed := newPlanTestBed(t)
	ctx := context.Background()
	state := t.TempDir()
	t.Setenv(statestore.EnvStateDir, state)
	env := bedPlanEnv(bed, state)
	var cmd cobra.Command
	argv, err := parseFixer(&cmd, policy.ModeAutonomous, `my-fixer --note "two words" $HOME;rm`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		runID string
		mode  string
		fixer []string
	}{
		{"0123456789abcdef0123456789abcdef", policy.ModeAutonomous, argv},
		{"fedcba9876543210fedcba9876543210", policy.ModeApprovalGated, nil},
	} {
		in := bed.Inputs("Add a retry budget", "Retries 502 and 503 within a per-client budget.")
		in.Mode = tc.mode
		p, err := planner.Build(ctx, bed.Deps(), in, tc.runID)
		if err != nil {
			t.Fatal(err)
		}
		statement, err := recordPlanApproval(ctx, env, p, in, tc.runID, bed.Viewer.ID, bed.Viewer.Login, tc.fixer)
		if err != nil || !strings.Contains(statement, "Approved plan "+p.PlanHash) {
			t.Fatalf("%s: statement %q, err %v", tc.mode, statement, err)
		}
		run, err := statestore.OpenPlan(state, tc.runID)
		if err != nil {
			t.Fatal(err)
		}
		if a, err := run.ReadApproval(); err != nil || a.PlanHash != p.PlanHash {
			t.Fatalf("%s: approval %+v, err %v", tc.mode, a, err)
		}
		if rec, err := initial.ReadInputs(run); err != nil || rec.Mode != tc.mode {
			t.Fatalf("%s: recorded inputs %+v, err %v", tc.mode, rec, err)
		}
		data, err := run.Read(wakeup.FixerFile)
		if tc.fixer == nil {
			if !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("approval-gated without --fixer recorded a fixer: %q %v", data, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if want := []string{"my-fixer", "--note", "two words", "$HOME;rm"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("stored fixer %q, want %q", got, want)
		}
	}
}
