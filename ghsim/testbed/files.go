package testbed

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// BaseFiles is the content of BaseBranch's first commit. One name has a
// space, and .gitattributes sets only attributes the safe profile accepts
// (no filter driver is configured anywhere).
func BaseFiles() map[string]string {
	return map[string]string{
		"README.md":                     "# widgets\n\nWidgets for the Octo Org.\n",
		".gitattributes":                "*.md text\n*.go diff=golang\n",
		"go.mod":                        "module github.com/octo-org/widgets\n\ngo 1.22\n",
		"docs/getting started.md":       "# Getting started\n\nRun `go test ./...`.\n",
		"docs/legacy-notes.md":          "# Legacy notes\n\nThe v0 client retried forever.\n",
		"internal/httpclient/client.go": clientGo,
		"internal/retry/budget.go":      "package retry\n",
	}
}

// FeatureFiles is HeadBranch's one commit on top of BaseBranch.
func FeatureFiles() map[string]string {
	return map[string]string{"internal/retry/budget.go": budgetGo}
}

// The checkout's uncommitted changes, relative slash paths.
const (
	ModifiedFile  = "internal/httpclient/client.go"
	DeletedFile   = "docs/legacy-notes.md"
	UntrackedFile = "internal/retry/budget_test.go"
)

// ChangedPaths are the paths of the pending change, sorted as the
// manifest sorts them.
func ChangedPaths() []string {
	return slices.Sorted(slices.Values([]string{ModifiedFile, DeletedFile, UntrackedFile}))
}

func applyWorktreeChanges(root string) error {
	if err := writeFiles(root, map[string]string{ModifiedFile: clientGoWithBudget, UntrackedFile: budgetTestGo}); err != nil {
		return err
	}
	return os.Remove(filepath.Join(root, filepath.FromSlash(DeletedFile)))
}

func writeFiles(root string, files map[string]string) error {
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		full := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(files[rel]), 0o644); err != nil {
			return err
		}
	}
	return nil
}

const clientGo = `package httpclient

import "net/http"

// Do sends req, retrying a 502 once.
func Do(c *http.Client, req *http.Request) (*http.Response, error) {
	resp, err := c.Do(req)
	if err == nil && resp.StatusCode == http.StatusBadGateway {
		resp.Body.Close()
		return c.Do(req)
	}
	return resp, err
}
`

const clientGoWithBudget = `package httpclient

import (
	"net/http"

	"github.com/octo-org/widgets/internal/retry"
)

// Do sends req, retrying a 502 or 503 while the budget allows.
func Do(c *http.Client, b *retry.Budget, req *http.Request) (*http.Response, error) {
	for {
		resp, err := c.Do(req)
		if err != nil || !retryable(resp.StatusCode) || !b.Take() {
			return resp, err
		}
		resp.Body.Close()
	}
}

func retryable(code int) bool {
	return code == http.StatusBadGateway || code == http.StatusServiceUnavailable
}
`

const budgetGo = `package retry

import "sync"

// Budget allows at most Max retries; a flapping dependency cannot multiply
// our load.
type Budget struct {
	mu   sync.Mutex
	Max  int
	used int
}

// Take spends one retry, reporting whether one was left.
func (b *Budget) Take() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used >= b.Max {
		return false
	}
	b.used++
	return true
}
`

const budgetTestGo = `package retry

import "testing"

func TestBudgetStopsAtMax(t *testing.T) {
	b := &Budget{Max: 2}
	for i := 0; i < 2; i++ {
		if !b.Take() {
			t.Fatalf("take %d refused", i)
		}
	}
	if b.Take() {
		t.Fatal("a third retry was allowed")
	}
}
`
