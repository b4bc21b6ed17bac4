package classify

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/schema"
)

// classifyThreads splits unresolved threads: Codex-rooted ones are eligible
// when a completed round answered exactly this content, actionable otherwise;
// the rest are counted as non-Codex-rooted. Resolved threads need nothing.
//
// A Codex-rooted thread whose root cannot be snapshotted (unreadable
// timestamp) is still actionable work, but a snapshot with an invented time
// would be a guess; it is counted as non-Codex-rooted instead so the count
// still blocks a clean finish and nothing is silently dropped.
func classifyThreads(threads []observe.Thread, answered []schema.Thread) (actionable, eligible []schema.Thread, nonCodex int64) {
	actionable, eligible = []schema.Thread{}, []schema.Thread{}
	done := make(map[string]schema.Thread, len(answered))
	for _, a := range answered {
		done[a.ID] = a
	}
	for _, t := range threads {
		if t.IsResolved {
			continue
		}
		if len(t.Comments) == 0 || !Trusted(t.Comments[0].Author) {
			nonCodex++
			continue
		}
		snap, ok := Snapshot(t)
		if !ok {
			nonCodex++
			continue
		}
		if prev, seen := done[snap.ID]; seen && prev.BodySHA256 == snap.BodySHA256 && prev.ContentVersionAt == snap.ContentVersionAt {
			eligible = append(eligible, snap)
		} else {
			actionable = append(actionable, snap)
		}
	}
	sortThreads(actionable)
	sortThreads(eligible)
	return actionable, eligible, nonCodex
}

// Snapshot is the manifest's thread snapshot of a thread with a root
// comment; ok is false when it has none or its root's time cannot be read.
func Snapshot(t observe.Thread) (schema.Thread, bool) {
	if len(t.Comments) == 0 {
		return schema.Thread{}, false
	}
	root := t.Comments[0]
	version := root.CreatedAt
	if root.LastEditedAt != "" {
		version = root.LastEditedAt
	}
	at, ok := productTime(version)
	if !ok {
		return schema.Thread{}, false
	}
	sum := sha256.Sum256([]byte(root.Body))
	return schema.Thread{
		BodySHA256:       hex.EncodeToString(sum[:]),
		ContentVersionAt: at,
		ID:               t.ID,
		PositionSHA256:   PositionSHA256(t),
		RootCommentID:    root.NodeID,
	}, true
}

// PositionSHA256 hashes the canonical object
// {"line","original_line","path","side","start_line"}; values GitHub did not
// report are null. side keeps GitHub's spelling (LEFT/RIGHT).
func PositionSHA256(t observe.Thread) string {
	pos := map[string]any{
		"line":          optNumber(t.Line),
		"original_line": optNumber(t.OriginalLine),
		"path":          optString(t.Path),
		"side":          optString(t.Side),
		"start_line":    optNumber(t.StartLine),
	}
	h, err := canon.HashValue(pos)
	if err != nil {
		// Only canon values are built above; an error here is a canon bug.
		panic("classify: position hash: " + err.Error())
	}
	return h
}

func optNumber(n *int64) any {
	if n == nil {
		return nil
	}
	return *n
}

func optString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func sortThreads(ts []schema.Thread) {
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].ID < ts[j].ID })
}
