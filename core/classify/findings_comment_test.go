package classify

import (
	"reflect"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
)

func findingsCommentPR(t *testing.T) *observe.PR {
	obs := basePR(findingsHead)
	obs.IssueComments = []observe.IssueComment{{ID: 7100, Author: bot, Body: fixture(t, "findings_comment.md"), CreatedAt: "2026-10-07T23:49:31Z"}}
	return obs
}

func TestFindingsIssueCommentIsFindingsAboutTheHead(t *testing.T) {
	obs := findingsCommentPR(t)
	out := Classify(Input{Obs: obs, Request: req(findingsHead)})
	if len(out.Responses) != 1 || len(out.Notices) != 0 {
		t.Fatalf("responses %+v notices %+v", out.Responses, out.Notices)
	}
	r := out.Responses[0]
	if r.Source != "issue-comment" || r.ZeroFindingsSignal || r.CommitSHA == nil || *r.CommitSHA != findingsHead {
		t.Fatalf("response %+v: a findings comment names the head it links at", r)
	}
	if got, want := FindingPaths(obs, req(findingsHead)), []string{"docs/retry policy.md", "internal/retry/budget.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("paths %q, want %q (the README link in prose is not a finding)", got, want)
	}
}

func TestFindingsCommentAtAnotherCommitDoesNotQualify(t *testing.T) {
	obs := findingsCommentPR(t)
	obs.PullRequest.HeadSHA = otherHead
	out := Classify(Input{Obs: obs, Request: req(otherHead)})
	if len(out.Responses) != 0 || len(out.Older) != 1 {
		t.Fatalf("responses %+v older %+v", out.Responses, out.Older)
	}
	if p := FindingPaths(obs, req(otherHead)); len(p) != 0 {
		t.Errorf("paths %q", p)
	}
}

// Without a badge under a link, or linking another repository, or at two
// commits, the body is not the findings shape: it is left unknown (null
// commit_sha, so the evaluator calls it ambiguous), never guessed into one.
func TestFindingsCommentShapeIsStrict(t *testing.T) {
	body := fixture(t, "findings_comment.md")
	cases := map[string]string{
		"no badge":           strings.NewReplacer("![P1 Badge]", "P1", "![P3 Badge]", "P3").Replace(body),
		"another repository": strings.ReplaceAll(body, "github.com/octo/widgets/blob/"+findingsHead+"/internal", "github.com/evil/widgets/blob/"+findingsHead+"/internal"),
		"two commits":        strings.Replace(body, findingsHead+"/docs", otherHead+"/docs", 1),
		"escaping path":      strings.Replace(body, "/internal/retry/budget.go#", "/internal/../../x#", 1),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			if b == body {
				t.Fatal("mutation did nothing")
			}
			if _, ok := readFindingsComment(b, "octo/widgets"); ok {
				t.Fatal("read as a findings comment")
			}
			obs := findingsCommentPR(t)
			obs.IssueComments[0].Body = b
			out := Classify(Input{Obs: obs, Request: req(findingsHead)})
			if len(out.Responses) != 1 || out.Responses[0].CommitSHA != nil {
				t.Errorf("responses %+v", out.Responses)
			}
		})
	}
}

// A findings comment on the head rules out rule (b) even with 👍 and ✅.
func TestFindingsCommentBlocksCleanByReaction(t *testing.T) {
	obs := cleanByReactionPR(t)
	body := strings.ReplaceAll(fixture(t, "findings_comment.md"), findingsHead, cleanHead)
	body = strings.Replace(body, "`bb837df21e`", "`e92e968aaa`", 1)
	obs.IssueComments = append(obs.IssueComments, observe.IssueComment{ID: 7100, Author: bot, Body: body, CreatedAt: "2026-10-07T23:49:31Z"})
	obs.Repository = "octo/widgets"
	out := Classify(Input{Obs: obs, Request: req(cleanHead)})
	for _, r := range out.Responses {
		if r.ZeroFindingsSignal {
			t.Fatalf("clean signal beside findings: %+v", out.Responses)
		}
	}
	if len(out.Responses) != 1 || out.Responses[0].ID != "7100" {
		t.Fatalf("responses %+v", out.Responses)
	}
}
