package classify

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
)

var reactor = observe.Actor{Login: "chatgpt-codex-connector[bot]", ID: 199175422, Type: "User"}

func TestSummaryStates(t *testing.T) {
	running := fixture(t, "summary_running.md")     // commit b27d1d8
	completed := fixture(t, "summary_completed.md") // commit e92e968
	cases := []struct {
		name, body, head, want string
	}{
		{"running for this head", running, zeroHead, SummaryRunning},
		{"running for another head", running, otherHead, ""},
		{"completed for this head", completed, "e92e968" + otherHead[7:], SummaryCompleted},
		{"completed for another head", completed, zeroHead, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obs := basePR(tc.head)
			obs.IssueComments = []observe.IssueComment{{ID: 1, Author: bot, Body: tc.body, CreatedAt: "2026-09-14T16:10:00Z"}}
			out := Classify(Input{Obs: obs, Request: req(tc.head)})
			if out.Live.SummaryState != tc.want {
				t.Errorf("summary state %q, want %q", out.Live.SummaryState, tc.want)
			}
			if out.Live.Reviewing != (tc.want == SummaryRunning) {
				t.Errorf("reviewing = %v", out.Live.Reviewing)
			}
		})
	}
}

func TestSummaryFromLookAlikeIsIgnored(t *testing.T) {
	obs := basePR(zeroHead)
	obs.IssueComments = []observe.IssueComment{{ID: 1, Author: sameLogin, Body: fixture(t, "summary_running.md"), CreatedAt: "2026-10-07T23:41:00Z"}}
	out := Classify(Input{Obs: obs, Request: req(zeroHead)})
	if out.Live.SummaryState != "" || out.Live.Reviewing {
		t.Errorf("%+v", out.Live)
	}
	// And an untrusted summary is an ordinary untrusted comment: no response.
	if len(out.Responses)+len(out.Older) != 0 {
		t.Errorf("responses %+v", out.Responses)
	}
}

func TestRunningSummaryWithVerdictIsNotReviewing(t *testing.T) {
	obs := basePR(zeroHead)
	obs.IssueComments = []observe.IssueComment{
		{ID: 1, Author: bot, Body: fixture(t, "summary_running.md"), CreatedAt: "2026-10-07T23:41:00Z"},
		zeroComment(t, 2, "2026-10-07T23:56:10Z"),
	}
	out := Classify(Input{Obs: obs, Request: req(zeroHead)})
	if out.Live.Reviewing || out.Live.SummaryState != SummaryRunning {
		t.Errorf("%+v", out.Live)
	}
}

func TestReactions(t *testing.T) {
	cases := []struct {
		name      string
		reactions []observe.Reaction
		want      []string
		reviewing bool
	}{
		{"eyes on the request", []observe.Reaction{{Content: "eyes", User: reactor, Subject: "5001", CreatedAt: "2026-10-07T23:40:02Z"}}, []string{"eyes"}, true},
		{"eyes on the PR after the request", []observe.Reaction{{Content: "eyes", User: reactor, Subject: "pr", CreatedAt: "2026-10-07T23:40:02Z"}}, []string{"eyes"}, true},
		{"eyes on the PR before the request", []observe.Reaction{{Content: "eyes", User: reactor, Subject: "pr", CreatedAt: "2026-10-07T23:00:00Z"}}, []string{}, false},
		{"eyes on another comment", []observe.Reaction{{Content: "eyes", User: reactor, Subject: "4000", CreatedAt: "2026-10-07T23:40:02Z"}}, []string{}, false},
		{"thumbs up, sorted and unique", []observe.Reaction{
			{Content: "eyes", User: reactor, Subject: "5001"}, {Content: "+1", User: reactor, Subject: "5001"}, {Content: "+1", User: reactor, Subject: "5001"},
		}, []string{"+1", "eyes"}, true},
		{"graphql login spelling", []observe.Reaction{{Content: "+1", User: observe.Actor{Login: "chatgpt-codex-connector", ID: 199175422, Type: "Bot"}, Subject: "5001"}}, []string{"+1"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obs := basePR(findingsHead)
			obs.Reactions = tc.reactions
			out := Classify(Input{Obs: obs, Request: req(findingsHead)})
			if len(out.Live.Reactions) != len(tc.want) {
				t.Fatalf("reactions %v, want %v", out.Live.Reactions, tc.want)
			}
			for i := range tc.want {
				if out.Live.Reactions[i] != tc.want[i] {
					t.Fatalf("reactions %v, want %v", out.Live.Reactions, tc.want)
				}
			}
			if out.Live.Reviewing != tc.reviewing {
				t.Errorf("reviewing %v, want %v", out.Live.Reviewing, tc.reviewing)
			}
		})
	}
}

// One review still running means the verdict is incomplete, whatever other
// rows or summary comments say.
func TestRunningRowWinsOverCompleted(t *testing.T) {
	running := fixture(t, "summary_running.md")
	completedRow := "| 📝 **Code Review** | ✅ **Completed** <relative-time datetime=\"2026-10-07T21:56:09.654997Z\">2026-10-07T21:56:09.654997Z</relative-time> | `b27d1d8` | Manual request |"
	runningRow := "| 📝 **Code Review** | 🔄 **Running** since <relative-time datetime=\"2026-10-07T21:44:31.317178Z\">2026-10-07T21:44:31.317178Z</relative-time> | `b27d1d8` | Manual request |"
	twoRows := strings.Replace(running, runningRow, runningRow+"\n"+completedRow, 1)
	if twoRows == running {
		t.Fatal("fixture row not found")
	}
	completedOnly := strings.Replace(running, runningRow, completedRow, 1)
	for name, comments := range map[string][]string{
		"running row then completed row": {twoRows},
		"completed comment then running": {completedOnly, running},
		"running comment then completed": {running, completedOnly},
	} {
		obs := basePR(zeroHead)
		for i, b := range comments {
			obs.IssueComments = append(obs.IssueComments, observe.IssueComment{ID: int64(i + 1), Author: bot, Body: b, CreatedAt: "2026-10-07T23:41:00Z"})
		}
		if got := Classify(Input{Obs: obs, Request: req(zeroHead)}).Live.SummaryState; got != SummaryRunning {
			t.Errorf("%s: %q, want running", name, got)
		}
	}
	obs := basePR(zeroHead)
	obs.IssueComments = []observe.IssueComment{{ID: 1, Author: bot, Body: completedOnly, CreatedAt: "2026-10-07T23:41:00Z"}}
	if got := Classify(Input{Obs: obs, Request: req(zeroHead)}).Live.SummaryState; got != SummaryCompleted {
		t.Errorf("completed only: %q", got)
	}
}
