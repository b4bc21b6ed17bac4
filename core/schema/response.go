package schema

import "github.com/prloop/gh-prloop/core/problems"

// Response is one normalized qualifying Codex response (seed "Normalize every
// qualifying response").
type Response struct {
	BodySHA256              string  `json:"body_sha256"`
	BotID                   int64   `json:"bot_id"`
	BotType                 string  `json:"bot_type"`
	CommitSHA               *string `json:"commit_sha"`
	ContentVersionAt        string  `json:"content_version_at"`
	CreatedAt               string  `json:"created_at"`
	ID                      string  `json:"id"`
	Source                  string  `json:"source"`
	TriggerRequestCommentID *int64  `json:"trigger_request_comment_id"`
	ZeroFindingsSignal      bool    `json:"zero_findings_signal"`
}

// Thread is the manifest's thread snapshot.
type Thread struct {
	BodySHA256       string `json:"body_sha256"`
	ContentVersionAt string `json:"content_version_at"`
	ID               string `json:"id"`
	PositionSHA256   string `json:"position_sha256"`
	RootCommentID    string `json:"root_comment_id"`
}

func decodeResponse(v any, path string, errs *problems.List) Response {
	o := newObj(v, path, errs)
	r := Response{
		BodySHA256:              o.sha256("body_sha256"),
		BotID:                   o.id("bot_id"),
		BotType:                 o.str("bot_type"),
		CommitSHA:               o.optSHA1("commit_sha"),
		ContentVersionAt:        o.timestamp("content_version_at"),
		CreatedAt:               o.timestamp("created_at"),
		ID:                      o.pattern("id", reDecID, "a positive decimal string"),
		Source:                  o.enum("source", "issue-comment", "review", "review-comment"),
		TriggerRequestCommentID: o.optID("trigger_request_comment_id"),
		ZeroFindingsSignal:      o.boolean("zero_findings_signal"),
	}
	o.done()
	return r
}

func decodeResponses(o *obj, key string) []Response {
	out := []Response{}
	o.array(key, func(v any, path string) { out = append(out, decodeResponse(v, path, o.errs)) })
	return out
}

func decodeThread(v any, path string, errs *problems.List) Thread {
	o := newObj(v, path, errs)
	t := Thread{
		BodySHA256:       o.sha256("body_sha256"),
		ContentVersionAt: o.timestamp("content_version_at"),
		ID:               o.str("id"),
		PositionSHA256:   o.sha256("position_sha256"),
		RootCommentID:    o.str("root_comment_id"),
	}
	o.done()
	return t
}

func decodeThreads(o *obj, key string) []Thread {
	out := []Thread{}
	o.array(key, func(v any, path string) { out = append(out, decodeThread(v, path, o.errs)) })
	return out
}
