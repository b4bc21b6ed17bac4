package automations

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
	"github.com/prloop/gh-prloop/core/schema"
)

// Statuses of a record (the recurring state's automation status).
const (
	StatusPaused = "PAUSED"
	StatusActive = "ACTIVE"
)

// Bounds on what a record may hold; a larger value is not one this program
// wrote.
const (
	MaxNameBytes   = 256
	MaxReasonBytes = 1024
	MaxPromptBytes = 4 << 20
	MaxRRuleBytes  = 256
)

// BootstrapReason is the reason of a stub created by CreatePaused: it waits
// for the prompt core accepts, then for Activate.
const BootstrapReason = "bootstrap: waiting for the prompt and its verification"

// Record is one automation.
type Record struct {
	ID           string `json:"id"`            // opaque, unique, never changes
	Key          string `json:"key"`           // the loop key (policy.AutomationKey), unique
	Name         string `json:"name"`          // for people; never interpreted
	Prompt       string `json:"prompt"`        // the rendered prompt; "" until SetPrompt
	PromptSHA256 string `json:"prompt_sha256"` // SHA-256 of Prompt's UTF-8 bytes, always
	RRule        string `json:"rrule"`         // when the loop wakes up
	Status       string `json:"status"`        // PAUSED | ACTIVE
	RunID        string `json:"run_id"`        // the run the automation belongs to
	Reason       string `json:"reason"`        // why it is paused; "" when ACTIVE
	CreatedAt    string `json:"created_at"`    // product time form
	UpdatedAt    string `json:"updated_at"`    // product time form, never before CreatedAt
}

// Automation is the record as the recurring state sees it (PROTOCOL §5).
func (r Record) Automation() schema.Automation {
	return schema.Automation{ID: r.ID, Key: r.Key, PromptSHA256: r.PromptSHA256, RRule: r.RRule, Status: r.Status}
}

// validate adds every problem of r, at path p, to errs.
func (r Record) validate(p string, errs *problems.List) {
	at := func(f string) string { return problems.Join(p, f) }
	if !validID(r.ID) {
		errs.Add(at("id"), problems.InvalidValue, "must be %q followed by 32 lowercase hex characters", idPrefix)
	}
	if !isHex(r.RunID, 32) {
		errs.Add(at("run_id"), problems.InvalidValue, "must be 32 lowercase hex characters")
	} else if err := checkKey(r.Key, r.RunID); err != "" {
		errs.Add(at("key"), problems.InvalidValue, "%s", err)
	}
	if r.Name == "" || len(r.Name) > MaxNameBytes || !plainText(r.Name) {
		errs.Add(at("name"), problems.InvalidValue, "must be 1 to %d bytes of UTF-8 text without control or invisible formatting characters", MaxNameBytes)
	}
	if len(r.Prompt) > MaxPromptBytes || !utf8.ValidString(r.Prompt) {
		errs.Add(at("prompt"), problems.InvalidValue, "must be valid UTF-8 of at most %d bytes", MaxPromptBytes)
	}
	if !isHex(r.PromptSHA256, 64) {
		errs.Add(at("prompt_sha256"), problems.InvalidValue, "must be 64 lowercase hex characters")
	} else if h := canon.Hash([]byte(r.Prompt)); h != r.PromptSHA256 {
		errs.Add(at("prompt_sha256"), problems.HashMismatch, "is %s but the prompt hashes to %s", r.PromptSHA256, h)
	}
	if !validRRule(r.RRule) {
		errs.Add(at("rrule"), problems.InvalidValue, "must be an RFC 5545 rule such as FREQ=MINUTELY;INTERVAL=2")
	}
	switch r.Status {
	case StatusActive:
		if r.Reason != "" {
			errs.Add(at("reason"), problems.Inconsistent, "must be empty while the automation is ACTIVE")
		}
		if r.Prompt == "" {
			errs.Add(at("prompt"), problems.Inconsistent, "an ACTIVE automation must have a prompt")
		}
	case StatusPaused:
		if r.Reason == "" {
			errs.Add(at("reason"), problems.MissingField, "a PAUSED automation must say why it is paused")
		}
	default:
		errs.Add(at("status"), problems.InvalidValue, "must be PAUSED or ACTIVE")
	}
	if len(r.Reason) > MaxReasonBytes || !plainText(r.Reason) {
		errs.Add(at("reason"), problems.InvalidValue, "must be at most %d bytes of UTF-8 text without control or invisible formatting characters", MaxReasonBytes)
	}
	created := schema.IsProductTime(r.CreatedAt)
	if !created {
		errs.Add(at("created_at"), problems.InvalidTimestamp, "must be in the form 2006-01-02T15:04:05Z")
	}
	if !schema.IsProductTime(r.UpdatedAt) {
		errs.Add(at("updated_at"), problems.InvalidTimestamp, "must be in the form 2006-01-02T15:04:05Z")
	} else if created && r.UpdatedAt < r.CreatedAt { // same fixed-width form: byte order is time order
		errs.Add(at("updated_at"), problems.Inconsistent, "is before created_at %s", r.CreatedAt)
	}
}

const keyPrefix = "github-codex-pr-loop/"

// checkKey returns why key is not the canonical loop key of runID
// (github-codex-pr-loop/<owner>/<repo>/pull/<n>/run/<run_id>, repository
// lowercase), or "".
func checkKey(key, runID string) string {
	const want = "must be github-codex-pr-loop/<owner>/<repo>/pull/<number>/run/<run_id> with the record's run_id"
	rest, ok := strings.CutPrefix(key, keyPrefix)
	if !ok {
		return want
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 6 || parts[2] != "pull" || parts[4] != "run" || parts[5] != runID {
		return want
	}
	for _, seg := range parts[:2] {
		if !repoSegment(seg) {
			return "owner and repository must be lowercase letters, digits, '.', '_' or '-'"
		}
	}
	n := parts[3]
	if n == "" || len(n) > 18 || n[0] == '0' || strings.Trim(n, "0123456789") != "" {
		return "the pull request number must be a positive decimal integer without leading zeros"
	}
	return ""
}

func repoSegment(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > 100 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// validRRule admits FREQ=<WORD> followed by ;NAME=VALUE parts of capitals,
// digits, ',' and '-': enough of RFC 5545 to refuse anything that is not a
// rule, without interpreting one (core compares it with policy).
func validRRule(s string) bool {
	if len(s) > MaxRRuleBytes || !strings.HasPrefix(s, "FREQ=") {
		return false
	}
	for _, part := range strings.Split(s, ";") {
		name, value, ok := strings.Cut(part, "=")
		if !ok || name == "" || value == "" || strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" ||
			strings.Trim(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,-") != "" {
			return false
		}
	}
	return true
}

// plainText: valid UTF-8 without control characters (C0, DEL, C1) or
// invisible formatting ones (bidi overrides, zero-width), which could make a
// name or reason display as something else.
func plainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// cleanText makes s plain text (see plainText) of at most max bytes: control
// and formatting characters become spaces, runs of spaces one space, invalid
// UTF-8 U+FFFD. It is for reasons, which may quote what a loop saw.
func cleanText(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	out := strings.TrimSpace(b.String())
	if len(out) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = out[:cut]
	}
	return out
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
