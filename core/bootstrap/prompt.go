package bootstrap

import (
	"slices"
	"strings"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/core/validate"
)

// Paths of the prompt document's parts.
const (
	pInitial   = "/initial_document"
	pSnapshot  = pInitial + "/initial_snapshot"
	pManifest  = pInitial + "/initial_manifest"
	pBootstrap = "/bootstrap_snapshot"
	pReceipt   = pBootstrap + "/post_write_receipt"
	pState     = pBootstrap + "/state"
)

// PromptResult is what `evaluate --prompt` reports for a prompt-ready
// document. It is empty whenever the problem list is not.
type PromptResult struct {
	AutomationKey        string
	RenderedPrompt       string
	RenderedPromptSHA256 string
}

// bind carries one validation's decoded document and the record of what was
// decoded cleanly.
type bind struct {
	doc schema.PromptDocument
	// d is what core/schema and the initial validator reported before any
	// cross-binding rule ran; rules ask d.CleanAt so they never compare the
	// zero value of a field that is already reported.
	d    problems.List
	errs *problems.List
}

func (b *bind) add(path, code, format string, args ...any) { b.errs.Add(path, code, format, args...) }

// Prompt validates a parsed bootstrap prompt document and renders the prompt.
func Prompt(raw any) (PromptResult, problems.List) {
	errs := problems.List{}
	top, _ := raw.(map[string]any)

	var doc schema.PromptDocument
	var decodeErrs problems.List
	doc = schema.DecodePromptDocument(raw, "", &decodeErrs)
	if initRaw, ok := top["initial_document"]; ok {
		// The initial validator decodes the same object again and adds its
		// rules; its problems replace the decoder's so none is reported twice.
		res, initErrs := validate.InitialAt(initRaw, pInitial)
		doc.InitialDocument = res.Doc
		errs.Merge(initErrs)
		decodeErrs = decodeErrs.Without(pInitial)
	}
	errs.Merge(decodeErrs)
	b := &bind{doc: doc, d: slices.Clone(errs), errs: &errs}

	bsRaw, hasBS := top["bootstrap_snapshot"].(map[string]any)
	if hasBS {
		b.checkBootstrapDigest(bsRaw)
		b.checkPlanHash()
		b.checkPRURL()
		b.checkDeadline()
		b.checkReceipt()
		b.checkState()
		b.checkEvaluator(bsRaw["state"])
	}
	key, rendered := b.checkRendered(bsRaw, hasBS)
	if !errs.Empty() {
		return PromptResult{}, errs
	}
	return PromptResult{AutomationKey: key, RenderedPrompt: rendered, RenderedPromptSHA256: canon.Hash([]byte(rendered))}, errs
}

func (b *bind) checkBootstrapDigest(bsRaw map[string]any) {
	if !b.d.CleanAt("/bootstrap_snapshot_sha256") {
		return
	}
	h, err := canon.HashValue(bsRaw)
	if err != nil {
		b.add(pBootstrap, problems.InvalidValue, "cannot be hashed: %v", err)
		return
	}
	if h != b.doc.BootstrapSnapshotSHA256 {
		b.add("/bootstrap_snapshot_sha256", problems.HashMismatch,
			"is %s but the canonical bootstrap_snapshot hashes to %s", b.doc.BootstrapSnapshotSHA256, h)
	}
}

func (b *bind) checkPlanHash() {
	if b.d.CleanAt(pBootstrap+"/initial_plan_hash", pInitial+"/initial_plan_hash") &&
		b.doc.BootstrapSnapshot.InitialPlanHash != b.doc.InitialDocument.InitialPlanHash {
		b.add(pBootstrap+"/initial_plan_hash", problems.Mismatch,
			"is %s but the initial document's plan hash is %s", b.doc.BootstrapSnapshot.InitialPlanHash, b.doc.InitialDocument.InitialPlanHash)
	}
}

func (b *bind) checkPRURL() {
	bs := b.doc.BootstrapSnapshot
	at := pBootstrap + "/pr_url"
	if !b.d.CleanAt(at) {
		return
	}
	u, why := ParsePRURL(bs.PRURL)
	if why != "" {
		b.add(at, problems.InvalidValue, "%q is not a canonical pull request URL: %s", clip(bs.PRURL), why)
		return
	}
	if repo := b.doc.InitialDocument.InitialSnapshot.Repository; b.d.CleanAt(pSnapshot+"/repository") && !strings.EqualFold(u.Repository, repo) {
		b.add(at, problems.Mismatch, "names repository %q, the approved repository is %q", u.Repository, repo)
	}
	if b.d.CleanAt(pState+"/pr/number") && u.Number != bs.State.PR.Number {
		b.add(at, problems.Mismatch, "names pull request %d, the state's is %d", u.Number, bs.State.PR.Number)
	}
	if b.d.CleanAt(pState+"/pr/url") && bs.State.PR.URL != bs.PRURL {
		b.add(pState+"/pr/url", problems.Mismatch, "must equal pr_url %q", bs.PRURL)
	}
}

func (b *bind) checkDeadline() {
	bs := b.doc.BootstrapSnapshot
	at := pBootstrap + "/request_deadline"
	if !b.d.CleanAt(at) {
		return
	}
	if !schema.IsProductTime(bs.RequestDeadline) {
		b.add(at, problems.InvalidTimestamp, "must be written as YYYY-MM-DDTHH:MM:SSZ, got %q", clip(bs.RequestDeadline))
		return
	}
	if created := bs.State.RequestCreatedAt; created != nil && b.d.CleanAt(pState+"/request_created_at") {
		want, err := deadlineFor(*created)
		if err == nil && want != bs.RequestDeadline {
			b.add(at, problems.Policy, "must be state.request_created_at + %d s: %s", policy.RequestTimeoutSecs, want)
		}
	}
	if d := bs.State.RequestDeadline; d != nil && b.d.CleanAt(pState+"/request_deadline") && *d != bs.RequestDeadline {
		b.add(pState+"/request_deadline", problems.Mismatch, "must equal the bootstrap request_deadline %s", bs.RequestDeadline)
	}
}

// checkEvaluator runs the recurring evaluator on the raw state and accepts
// only the one expected finding: the stub is still PAUSED. It runs only on a
// state that decoded cleanly; a broken state is already reported.
func (b *bind) checkEvaluator(stateRaw any) {
	if !b.d.CleanAt(pState) {
		return
	}
	r := evaluate.Evaluate(stateRaw)
	// The evaluator's paths are relative to the state. A problem this
	// validator already reported at the same place is not repeated.
	for _, p := range r.Errors {
		if !b.errs.Has(pState+p.Path, p.Code) {
			b.add(pState+p.Path, p.Code, "%s", p.Message)
		}
	}
	if len(r.Errors) > 0 {
		return
	}
	if !slices.Equal(r.Inconsistencies, []string{evaluate.ReasonPausedBootstrap}) {
		b.add(pState, problems.Inconsistent,
			"the recurring evaluator must find exactly [%s]; it found [%s] (%s/%s: %s)",
			evaluate.ReasonPausedBootstrap, strings.Join(r.Inconsistencies, ", "), r.Action, r.Reason, r.Message)
	}
}

// checkRendered verifies rendered_prompt and its digest. It returns the key
// and the prompt it rendered, for the result.
func (b *bind) checkRendered(bsRaw map[string]any, hasBS bool) (string, string) {
	doc := b.doc
	if b.d.CleanAt("/rendered_prompt", "/rendered_prompt_sha256") {
		if h := canon.Hash([]byte(doc.RenderedPrompt)); h != doc.RenderedPromptSHA256 {
			b.add("/rendered_prompt_sha256", problems.HashMismatch, "is %s but rendered_prompt's UTF-8 bytes hash to %s", doc.RenderedPromptSHA256, h)
		}
	}
	if !hasBS || !b.d.CleanAt(pSnapshot+"/repository", pState+"/pr/number", pManifest+"/run_id", "/rendered_prompt") {
		return "", ""
	}
	key := policy.AutomationKey(doc.InitialDocument.InitialSnapshot.Repository, doc.BootstrapSnapshot.State.PR.Number, doc.InitialDocument.InitialManifest.RunID)
	rendered, err := Render(key, bsRaw)
	if err != nil {
		b.add(pBootstrap, problems.InvalidValue, "cannot be rendered: %v", err)
		return "", ""
	}
	if rendered != doc.RenderedPrompt {
		b.add("/rendered_prompt", problems.Mismatch, "must be the v1 template rendered with key %s and the canonical bootstrap_snapshot", key)
	}
	return key, rendered
}

func clip(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
