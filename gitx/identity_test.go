package gitx

import (
	"context"
	"strings"
	"testing"
)

func TestWithIdentitySetsAuthorAndCommitterOnly(t *testing.T) {
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	id, err := r.WithIdentity("Mona Lisa", "mona@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if id.InvocationSHA256() != r.InvocationSHA256() {
		t.Fatal("an identity must not change the invocation digest")
	}
	out, err := id.Run(context.Background(), t.TempDir(), "var", "GIT_AUTHOR_IDENT")
	if err != nil || !strings.HasPrefix(string(out), "Mona Lisa <mona@example.com> ") {
		t.Fatalf("author ident %q %v", out, err)
	}
	for _, bad := range [][2]string{{"", "a@b"}, {"x", ""}, {"x\ny", "a@b"}, {"x", "<a@b>"}, {"x\x00", "a@b"}} {
		if _, err := r.WithIdentity(bad[0], bad[1]); err == nil {
			t.Errorf("WithIdentity(%q, %q) accepted", bad[0], bad[1])
		}
	}
}
