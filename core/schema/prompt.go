package schema

import "github.com/prloop/gh-prloop/core/problems"

// Receipt is the post-write receipt: exactly the seed's eleven fields.
type Receipt struct {
	BaseSHA                 string   `json:"base_sha"`
	FinalHeadSHA            string   `json:"final_head_sha"`
	HeadDescendsFromInitial bool     `json:"head_descends_from_initial"`
	InitialHeadSHA          string   `json:"initial_head_sha"`
	Paths                   []string `json:"paths"`
	PRHeadSHA               string   `json:"pr_head_sha"`
	PushedDiffSHA256        string   `json:"pushed_diff_sha256"`
	RemoteHeadSHA           string   `json:"remote_head_sha"`
	ReviewRequestBody       string   `json:"review_request_body"`
	ReviewRequestBodySHA256 string   `json:"review_request_body_sha256"`
	WorktreeClean           bool     `json:"worktree_clean"`
}

// BootstrapSnapshot is what the automation prompt checkpoints.
type BootstrapSnapshot struct {
	InitialPlanHash  string  `json:"initial_plan_hash"`
	PostWriteReceipt Receipt `json:"post_write_receipt"`
	PRURL            string  `json:"pr_url"`
	RequestDeadline  string  `json:"request_deadline"`
	State            State   `json:"state"`
}

// PromptDocument is the input of `evaluate --prompt`.
type PromptDocument struct {
	BootstrapSnapshot       BootstrapSnapshot `json:"bootstrap_snapshot"`
	BootstrapSnapshotSHA256 string            `json:"bootstrap_snapshot_sha256"`
	InitialDocument         InitialDocument   `json:"initial_document"`
	RenderedPrompt          string            `json:"rendered_prompt"`
	RenderedPromptSHA256    string            `json:"rendered_prompt_sha256"`
}

// DecodeReceipt decodes the post-write receipt exactly.
func DecodeReceipt(v any, path string, errs *problems.List) Receipt {
	o := newObj(v, path, errs)
	r := Receipt{
		BaseSHA:                 o.sha1("base_sha"),
		FinalHeadSHA:            o.sha1("final_head_sha"),
		HeadDescendsFromInitial: o.boolean("head_descends_from_initial"),
		InitialHeadSHA:          o.sha1("initial_head_sha"),
		Paths:                   o.strings("paths"),
		PRHeadSHA:               o.sha1("pr_head_sha"),
		PushedDiffSHA256:        o.sha256("pushed_diff_sha256"),
		RemoteHeadSHA:           o.sha1("remote_head_sha"),
		ReviewRequestBody:       o.str("review_request_body"),
		ReviewRequestBodySHA256: o.sha256("review_request_body_sha256"),
		WorktreeClean:           o.boolean("worktree_clean"),
	}
	o.done()
	return r
}

// DecodeBootstrapSnapshot decodes the bootstrap snapshot exactly.
func DecodeBootstrapSnapshot(v any, path string, errs *problems.List) BootstrapSnapshot {
	o := newObj(v, path, errs)
	var b BootstrapSnapshot
	b.InitialPlanHash = o.sha256("initial_plan_hash")
	if r, ok := o.get("post_write_receipt", false); ok {
		b.PostWriteReceipt = DecodeReceipt(r, o.p("post_write_receipt"), errs)
	}
	b.PRURL = o.str("pr_url")
	b.RequestDeadline = o.timestamp("request_deadline")
	if s, ok := o.get("state", false); ok {
		b.State = DecodeState(s, o.p("state"), errs)
	}
	o.done()
	return b
}

// DecodePromptDocument decodes the bootstrap prompt document exactly.
func DecodePromptDocument(v any, path string, errs *problems.List) PromptDocument {
	o := newObj(v, path, errs)
	var d PromptDocument
	if b, ok := o.get("bootstrap_snapshot", false); ok {
		d.BootstrapSnapshot = DecodeBootstrapSnapshot(b, o.p("bootstrap_snapshot"), errs)
	}
	d.BootstrapSnapshotSHA256 = o.sha256("bootstrap_snapshot_sha256")
	if i, ok := o.get("initial_document", false); ok {
		d.InitialDocument = DecodeInitialDocument(i, o.p("initial_document"), errs)
	}
	d.RenderedPrompt = o.str("rendered_prompt")
	d.RenderedPromptSHA256 = o.sha256("rendered_prompt_sha256")
	o.done()
	return d
}
