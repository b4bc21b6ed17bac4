package classify

import (
	"regexp"
	"strings"
)

// Notice kinds.
const (
	NoticeUsageLimit  = "usage-limit"
	NoticeEnvironment = "environment"
	NoticeAccount     = "account"
	NoticeDeactivated = "deactivated"
	NoticeError       = "error"
	// NoticeFailed is the summary comment's Code Review row ⚠️ Failed for
	// the requested head.
	NoticeFailed = "failed"
)

// noticeOpenings are the bot's service messages, lowercased, as they open a
// body once an optional "Codex Review: " and markdown link brackets are
// removed (PROTOCOL §5 "notices"; testdata/README.md says where each was
// seen). Matching only the opening is the point: a human, or a finding,
// quoting one of these sentences is not the bot posting it.
var noticeOpenings = []struct{ prefix, kind string }{
	{"you have reached your codex usage limits", NoticeUsageLimit},
	{"codex usage limits have been reached", NoticeUsageLimit},
	{"to use codex here, create an environment for this repo", NoticeEnvironment},
	{"to use codex here, create a codex account and connect to github", NoticeAccount},
	{"this workspace is deactivated", NoticeDeactivated},
	{"something went wrong", NoticeError},
	{"codex couldn't complete this request", NoticeError},
	{"codex couldn’t complete this request", NoticeError},
}

// reLinkTarget is the "](url)" half of a markdown link.
var reLinkTarget = regexp.MustCompile(`\]\([^)\s]*\)`)

// noticeKind classifies a service message by how the body opens. Only issue
// comments and reviews are asked: an inline finding may well discuss these
// very phrases (testdata/finding_p2_usage_wording.md), and so may a findings
// body, which opens with its heading and so never matches.
func noticeKind(body string) string {
	b := trimLead(body)
	if rest, ok := strings.CutPrefix(b, "Codex Review:"); ok {
		b = trimLead(rest)
	}
	first, _, _ := strings.Cut(b, "\n")
	first = strings.ToLower(reLinkTarget.ReplaceAllString(first, ""))
	first = strings.ReplaceAll(first, "[", "")
	for _, o := range noticeOpenings {
		if strings.HasPrefix(first, o.prefix) {
			return o.kind
		}
	}
	return ""
}
