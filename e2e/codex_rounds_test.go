package e2e

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
)

// updateReplay rewrites the saved observations the CLI's replay tests read
// (cmd/gh-prloop/testdata/replay) from fresh simulator rounds:
//
//	go test ./e2e -run TestCodexRoundsReplay -update-replay
var updateReplay = flag.Bool("update-replay", false, "rewrite cmd/gh-prloop/testdata/replay from the simulator")

const replayDir = "../cmd/gh-prloop/testdata/replay"

// playFixRound is round 1 of the demo loop with Codex scripted to answer sc:
// the fix is pushed, Codex's round-0 threads are resolved, the canonical
// round-1 request ("@codex review" + marker) is posted, and the bot plays
// its script to the end; five minutes later the PR is observed. It is the
// first half of a wakeup, shared with the loop's end-to-end tests.
func playFixRound(t *testing.T, e *env, sc ghsim.Scenario, before ...func(*env)) *inspect.Result {
	t.Helper()
	repo := e.pr.Repo()
	repo.AddCommit(ghsim.Commit{SHA: ghsim.DemoFixSHA, Message: "Restore the budget on success", Parents: []string{ghsim.DemoHeadSHA}, Date: e.clock.Now()})
	e.pr.Push(ghsim.DemoFixSHA)
	for _, th := range e.pr.Threads() {
		if th.Comments[0].Author.ID == ghsim.CodexBotID {
			e.pr.ResolveThread(th.NodeID, true)
		}
	}
	for _, f := range before {
		f(e)
	}
	e.sim.QueueCodexScenarios(sc)
	e.clock.Advance(time.Minute)
	e.pr.PostComment(ghsim.Comment{Author: e.sim.Viewer(), Body: ghsim.DemoFollowUpRequestBody})
	e.sim.Settle()
	e.clock.Advance(5 * time.Minute)
	r, err := inspect.Observe(context.Background(), e.client, demoRepo, ghsim.DemoPR)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// quoteNotice is a human answering in the conversation by quoting a notice;
// only the bot's own notices count, and only where it puts them.
func quoteNotice(e *env) {
	e.pr.PostComment(ghsim.Comment{Author: e.sim.Viewer(), Body: "> " + ghsim.NoticeDeactivatedText + "\n\nSeen this before? I reconnected the workspace, trying again."})
}

// codexRound is one scripted outcome and what a report must conclude.
type codexRound struct {
	name           string
	sc             ghsim.Scenario
	before         []func(*env)
	classification string
	reason         string
	notices        []string // the notice kinds, in response order
}

var codexRounds = []codexRound{
	{name: "clean-by-reaction", sc: ghsim.Scenario{Kind: ghsim.CleanByReaction}, classification: "zero-findings", reason: "zero-findings"},
	{name: "clean-by-reaction-on-pr", sc: ghsim.Scenario{Kind: ghsim.CleanByReaction, ThumbsOnPR: true, SecurityReview: true}, classification: "zero-findings", reason: "zero-findings"},
	{name: "clean-comment", sc: ghsim.Scenario{Kind: ghsim.ZeroFindings}, classification: "zero-findings", reason: "zero-findings"},
	{name: "findings-review", sc: ghsim.Scenario{Kind: ghsim.Findings}, classification: "findings", reason: "findings"},
	{name: "findings-comment", sc: ghsim.Scenario{Kind: ghsim.FindingsComment}, classification: "findings", reason: "findings"},
	{name: "notice-usage-limit", sc: ghsim.Scenario{Kind: ghsim.NoticeUsageLimit}, classification: "ambiguous", reason: "codex-notice", notices: []string{"usage-limit"}},
	{name: "notice-environment", sc: ghsim.Scenario{Kind: ghsim.NoticeEnvironment}, classification: "ambiguous", reason: "codex-notice", notices: []string{"environment"}},
	{name: "notice-account", sc: ghsim.Scenario{Kind: ghsim.NoticeAccount}, classification: "ambiguous", reason: "codex-notice", notices: []string{"account"}},
	{name: "notice-deactivated", sc: ghsim.Scenario{Kind: ghsim.NoticeDeactivated}, classification: "ambiguous", reason: "codex-notice", notices: []string{"deactivated"}},
	{name: "notice-error", sc: ghsim.Scenario{Kind: ghsim.NoticeError}, classification: "ambiguous", reason: "codex-notice", notices: []string{"failed", "error"}},
	{name: "failed-summary", sc: ghsim.Scenario{Kind: ghsim.FailedSummary}, classification: "ambiguous", reason: "codex-notice", notices: []string{"failed"}},
	{name: "silence", sc: ghsim.Scenario{Kind: ghsim.Silent}, classification: "awaiting-response", reason: "awaiting-response"},
	{name: "human-quotes-notice", sc: ghsim.Scenario{Kind: ghsim.Silent}, before: []func(*env){quoteNotice}, classification: "awaiting-response", reason: "awaiting-response"},
}

// TestCodexRoundsReplay plays every scripted Codex outcome through the
// simulator and the production client, checks the report's verdict, then
// saves the observation, loads it back and replays it: the replay must
// reach the same state and verdict. The saved files are the CLI's replay
// fixtures, kept in step here.
func TestCodexRoundsReplay(t *testing.T) {
	for _, tc := range codexRounds {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			r := playFixRound(t, e, tc.sc, tc.before...)
			checkRound(t, tc, r)

			saved, err := inspect.EncodeObservation(r.Obs)
			if err != nil {
				t.Fatal(err)
			}
			obs, err := inspect.LoadObservation(bytes.NewReader(saved))
			if err != nil {
				t.Fatal(err)
			}
			again, err := inspect.Replay(obs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again.State, r.State) || !reflect.DeepEqual(again.Verdict, r.Verdict) || !reflect.DeepEqual(again.Classified, r.Classified) {
				t.Fatalf("replay differs from the live reading:\nlive   %+v\nreplay %+v", r.Verdict, again.Verdict)
			}

			path := filepath.Join(replayDir, tc.name+".json")
			if *updateReplay {
				if err := os.MkdirAll(replayDir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, saved, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			committed, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-replay)", err)
			}
			if !bytes.Equal(committed, saved) {
				t.Errorf("%s is not what the simulator produces now; run go test ./e2e -run TestCodexRoundsReplay -update-replay", path)
			}
		})
	}
}

func checkRound(t *testing.T, tc codexRound, r *inspect.Result) {
	t.Helper()
	if r.Verdict.Action != "report" || r.Verdict.Classification != tc.classification || r.Verdict.Reason != tc.reason {
		t.Fatalf("verdict %s/%s (%s), want report %s/%s", r.Verdict.Classification, r.Verdict.Reason, r.Verdict.Message, tc.classification, tc.reason)
	}
	kinds := []string{}
	for _, n := range r.Classified.Notices {
		kinds = append(kinds, n.Kind)
	}
	if want := append([]string{}, tc.notices...); !reflect.DeepEqual(kinds, want) {
		t.Errorf("notices %v, want %v", kinds, want)
	}
	if len(tc.notices) > 0 && !strings.Contains(r.Verdict.Message, tc.notices[len(tc.notices)-1]+" notice") {
		t.Errorf("the verdict does not quote the %s notice: %s", tc.notices[len(tc.notices)-1], r.Verdict.Message)
	}
}

// A look-alike account playing any of these scripts — its comments, its
// summary, its 👍 — changes nothing: the round still awaits Codex.
func TestLookalikePlayingCodexRoundsChangesNothing(t *testing.T) {
	for _, tc := range codexRounds {
		if tc.sc.Kind == ghsim.Silent {
			continue
		}
		for _, typ := range []string{ghsim.TypeBot, ghsim.TypeUser} {
			t.Run(tc.name+"/"+typ, func(t *testing.T) {
				e := newEnv(t)
				sc := tc.sc
				sc.Actor = e.sim.AddLookalike(4242, typ)
				r := playFixRound(t, e, sc)
				if r.Verdict.Classification != "awaiting-response" || len(r.State.Responses) != 0 || len(r.Classified.Notices) != 0 {
					t.Fatalf("an impostor moved the verdict: %+v responses %+v notices %+v", r.Verdict, r.State.Responses, r.Classified.Notices)
				}
				if r.Classified.Live.SummaryState != "" || len(r.Classified.Live.Reactions) != 0 {
					t.Errorf("impostor's summary or reactions shown: %+v", r.Classified.Live)
				}
			})
		}
	}
}
