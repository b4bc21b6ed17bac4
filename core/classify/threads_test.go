package classify

import (
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/schema"
)

func codexThread(t *testing.T, id string, resolved bool) observe.Thread {
	return observe.Thread{
		ID: id, IsResolved: resolved, Path: "mu/tools/executors/commit_executor.py",
		Line: i64(17870), OriginalLine: i64(17870), Side: "RIGHT",
		Comments: []observe.ThreadComment{{
			NodeID: "PRRC_" + id, ID: 2400000001, Author: bot, Body: fixture(t, "finding_p1.md"),
			CreatedAt: "2026-10-07T23:49:31Z", CommitID: findingsHead, OriginalCommitID: findingsHead,
		}},
	}
}

func TestThreadSnapshot(t *testing.T) {
	th := codexThread(t, "PRRT_kwDOQvy8bs6qI-5e", false)
	th.Comments[0].NodeID = "PRRC_kwDOQvy8bs77IAg6"
	snap, ok := Snapshot(th)
	if !ok {
		t.Fatal("no snapshot")
	}
	// Independently built canonical position object (keys sorted, ints plain).
	wantPos := canon.Hash([]byte(`{"line":17870,"original_line":17870,"path":"mu/tools/executors/commit_executor.py","side":"RIGHT","start_line":null}`))
	want := schema.Thread{
		BodySHA256:       "ff2c6b22b5f36ec3b2347da074a3be12739fe0643a6748f3cffb1fc883860fbc",
		ContentVersionAt: "2026-10-07T23:49:31Z",
		ID:               "PRRT_kwDOQvy8bs6qI-5e",
		PositionSHA256:   wantPos,
		RootCommentID:    "PRRC_kwDOQvy8bs77IAg6",
	}
	if snap != want {
		t.Errorf("snapshot\n got %+v\nwant %+v", snap, want)
	}
}

func TestPositionHashMissingValuesAreNull(t *testing.T) {
	th := observe.Thread{ID: "T", Comments: []observe.ThreadComment{{Author: bot, CreatedAt: "2026-10-07T23:49:31Z"}}}
	want := canon.Hash([]byte(`{"line":null,"original_line":null,"path":null,"side":null,"start_line":null}`))
	if got := PositionSHA256(th); got != want {
		t.Errorf("%s, want %s", got, want)
	}
	th.StartLine, th.Side = i64(3), "LEFT"
	want = canon.Hash([]byte(`{"line":null,"original_line":null,"path":null,"side":"LEFT","start_line":3}`))
	if got := PositionSHA256(th); got != want {
		t.Errorf("with start_line/side: %s, want %s", got, want)
	}
}

func TestEditedRootUsesLastEditedAt(t *testing.T) {
	th := codexThread(t, "T1", false)
	th.Comments[0].LastEditedAt = "2026-10-08T02:00:00+01:00"
	snap, _ := Snapshot(th)
	if snap.ContentVersionAt != "2026-10-08T01:00:00Z" {
		t.Errorf("content_version_at = %s", snap.ContentVersionAt)
	}
}

func TestThreadClassification(t *testing.T) {
	fresh := codexThread(t, "T-fresh", false)
	answered := codexThread(t, "T-answered", false)
	edited := codexThread(t, "T-edited", false)
	resolved := codexThread(t, "T-resolved", true)
	humanRoot := codexThread(t, "T-human", false)
	humanRoot.Comments[0].Author = human
	lookAlike := codexThread(t, "T-lookalike", false)
	lookAlike.Comments[0].Author = asUser
	humanResolved := codexThread(t, "T-human-resolved", true)
	humanResolved.Comments[0].Author = human
	empty := observe.Thread{ID: "T-empty"}
	// A human reply after the bot's root does not change who rooted it.
	answered.Comments = append(answered.Comments, observe.ThreadComment{NodeID: "PRRC_reply", Author: human, Body: "fixed", CreatedAt: "2026-10-08T00:00:00Z"})

	snapAnswered, _ := Snapshot(answered)
	snapEditedBefore, _ := Snapshot(edited)
	edited.Comments[0].LastEditedAt = "2026-10-08T03:00:00Z" // edited after it was answered

	obs := basePR(findingsHead)
	obs.Threads = []observe.Thread{resolved, humanRoot, fresh, edited, answered, lookAlike, humanResolved, empty}
	out := Classify(Input{Obs: obs, Request: req(findingsHead), Answered: []schema.Thread{snapAnswered, snapEditedBefore}})

	ids := func(ts []schema.Thread) []string {
		var s []string
		for _, t := range ts {
			s = append(s, t.ID)
		}
		return s
	}
	if got := ids(out.Actionable); len(got) != 2 || got[0] != "T-edited" || got[1] != "T-fresh" {
		t.Errorf("actionable = %v, want [T-edited T-fresh]", got)
	}
	if got := ids(out.Eligible); len(got) != 1 || got[0] != "T-answered" {
		t.Errorf("eligible = %v, want [T-answered]", got)
	}
	if out.NonCodexRooted != 3 {
		t.Errorf("non-codex-rooted = %d, want 3 (human, look-alike, empty)", out.NonCodexRooted)
	}
}

func TestAnsweredWithChangedBodyIsActionableAgain(t *testing.T) {
	th := codexThread(t, "T1", false)
	prev, _ := Snapshot(th)
	th.Comments[0].Body += "\n\nEdited."
	obs := basePR(findingsHead)
	obs.Threads = []observe.Thread{th}
	out := Classify(Input{Obs: obs, Answered: []schema.Thread{prev}})
	if len(out.Actionable) != 1 || len(out.Eligible) != 0 {
		t.Errorf("actionable %v eligible %v", out.Actionable, out.Eligible)
	}
}
