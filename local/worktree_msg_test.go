package local_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/gitx"
	"github.com/prloop/gh-prloop/local"
)

// Outside a checkout the refusal names the fix in plain words, not git's
// "fatal: not a git repository (or any of the parent directories)".
func TestNotAWorktreeSaysWhatToDo(t *testing.T) {
	r, err := gitx.New(gitx.Options{CredentialHelper: "!false"})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", t.TempDir()+"/..")
	dir := t.TempDir()
	_, err = local.Discover(context.Background(), r, dir)
	var ref *local.Refusal
	if !errors.As(err, &ref) || ref.Code != local.CodeNotWorktree {
		t.Fatalf("err %v", err)
	}
	if !strings.Contains(err.Error(), "is not inside a git checkout; run from your repository or pass -C DIR") ||
		strings.Contains(err.Error(), "fatal") || strings.Contains(err.Error(), "\n") {
		t.Errorf("message %q", err.Error())
	}
}
