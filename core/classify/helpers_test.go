package classify

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/prloop/gh-prloop/core/observe"
)

// Real heads: findingsHead is the commit the saved findings review names in
// full; zeroHead extends the prefix the saved zero-findings comment names.
const (
	findingsHead = "bb837df21e053ce5ad577e36550cb1126dc97055"
	zeroHead     = "b27d1d8861aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	otherHead    = "0123456789abcdef0123456789abcdef01234567"
	baseSHA      = "fedcba9876543210fedcba9876543210fedcba98"
	requestID    = int64(5001)
	requestAt    = "2026-10-07T23:40:00Z"
)

var (
	bot       = observe.Actor{Login: "chatgpt-codex-connector[bot]", ID: 199175422, Type: "Bot"}
	human     = observe.Actor{Login: "octocat", ID: 583231, Type: "User"}
	sameLogin = observe.Actor{Login: "chatgpt-codex-connector[bot]", ID: 424242, Type: "Bot"}
	asUser    = observe.Actor{Login: "chatgpt-codex-connector[bot]", ID: 199175422, Type: "User"}
)

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func req(head string) *Request {
	return &Request{CommentID: requestID, CreatedAt: requestAt, HeadSHA: head}
}

// basePR is an open same-repository PR at head with nothing on it yet.
func basePR(head string) *observe.PR {
	return &observe.PR{
		Repository: "octo/widgets",
		ViewerID:   583231,
		ObservedAt: "2026-10-08T00:00:00Z",
		PullRequest: observe.PullRequest{
			Number: 42, URL: "https://github.com/octo/widgets/pull/42", Title: "t",
			State: "OPEN", BaseRefName: "main", BaseSHA: baseSHA, HeadRefName: "feature", HeadSHA: head,
			Mergeable: "MERGEABLE", MergeStateStatus: "CLEAN", ReviewDecision: "",
		},
		ChecksRead: true,
	}
}

func i64(n int64) *int64 { return &n }
