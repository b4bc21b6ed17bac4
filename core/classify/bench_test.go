package classify

import (
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
)

// BenchmarkClassifyLargePR: a busy PR (300 conversation comments, 100 reviews,
// 300 inline comments, 300 threads, 100 checks).
func BenchmarkClassifyLargePR(b *testing.B) {
	obs := basePR(findingsHead)
	body := "**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange?style=flat)</sub></sub>  Title**\n\nSome prose about the problem."
	for i := int64(1); i <= 300; i++ {
		obs.IssueComments = append(obs.IssueComments, observe.IssueComment{ID: i, Author: bot, Body: "Codex Review: Didn't find any major issues.\n\n**Reviewed commit:** `bb837df21e`", CreatedAt: "2026-10-07T23:50:00Z"})
		obs.ReviewComments = append(obs.ReviewComments, observe.ReviewComment{ID: i, Author: bot, Body: body, CreatedAt: "2026-10-07T23:50:00Z", OriginalCommitID: findingsHead})
		line := i
		obs.Threads = append(obs.Threads, observe.Thread{ID: "T" + string(rune('a'+i%26)), Path: "a/b.go", Line: &line, Side: "RIGHT",
			Comments: []observe.ThreadComment{{NodeID: "C", Author: bot, Body: body, CreatedAt: "2026-10-07T23:50:00Z"}}})
		if i <= 100 {
			obs.Reviews = append(obs.Reviews, observe.Review{ID: i, Author: bot, Body: "x", State: "COMMENTED", CommitID: findingsHead, SubmittedAt: "2026-10-07T23:50:00Z"})
			obs.CheckRuns = append(obs.CheckRuns, observe.CheckRun{Name: "c", Status: "completed", Conclusion: "success"})
		}
	}
	in := Input{Obs: obs, Request: req(findingsHead)}
	b.ReportAllocs()
	for b.Loop() {
		Classify(in)
	}
}
