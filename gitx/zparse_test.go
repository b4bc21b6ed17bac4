package gitx_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/gitx"
)

func TestSplitZ(t *testing.T) {
	recs, err := gitx.SplitZ([]byte("a\x00b c\x00\n\x00"))
	if err != nil || len(recs) != 3 || string(recs[1]) != "b c" || string(recs[2]) != "\n" {
		t.Fatalf("SplitZ = %q, %v", recs, err)
	}
	if recs, err := gitx.SplitZ(nil); err != nil || recs != nil {
		t.Fatalf("empty: %q %v", recs, err)
	}
	if _, err := gitx.SplitZ([]byte("a\x00truncated")); err == nil {
		t.Fatal("unterminated record accepted")
	}
}

func TestParseStatusV2Records(t *testing.T) {
	h := "0123456789012345678901234567890123456789"
	out := "1 .M N... 100644 100644 100644 " + h + " " + h + " with space\nand newline\x00" +
		"2 R. N... 100644 100644 100644 " + h + " " + h + " R100 new name\x00old name\x00" +
		"u UU N... 100644 100644 100644 100644 " + h + " " + h + " " + h + " conflict\x00" +
		"? bad\xffname\x00" +
		"# branch.oid " + h + "\x00"
	entries, err := gitx.ParseStatusV2([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 5 {
		t.Fatalf("%d entries", len(entries))
	}
	if e := entries[0]; e.Kind != '1' || e.XY() != ".M" || len(e.Fields) != 7 || string(e.Path) != "with space\nand newline" {
		t.Errorf("entry 0 = %+v", e)
	}
	if e := entries[1]; e.Kind != '2' || e.Fields[7] != "R100" || string(e.Path) != "new name" || string(e.OrigPath) != "old name" {
		t.Errorf("entry 1 = %+v", e)
	}
	if e := entries[2]; e.Kind != 'u' || len(e.Fields) != 9 || string(e.Path) != "conflict" {
		t.Errorf("entry 2 = %+v", e)
	}
	if e := entries[3]; e.Kind != '?' || string(e.Path) != "bad\xffname" {
		t.Errorf("entry 3 = %+v", e)
	}
	if e := entries[4]; e.Kind != '#' || e.Fields[0] != "branch.oid "+h {
		t.Errorf("entry 4 = %+v", e)
	}
	for _, bad := range []string{
		"1 .M N... 100644\x00", // too few fields
		"2 R. N... 100644 100644 100644 " + h + " " + h + " R100 new\x00", // no original path
		"x what\x00",     // unknown kind
		"? \x00",         // no path
		"? unterminated", // not -z
	} {
		if _, err := gitx.ParseStatusV2([]byte(bad)); err == nil {
			t.Errorf("ParseStatusV2(%q) accepted", bad)
		}
	}
}

func TestParseStatusV2OfARealRepository(t *testing.T) {
	dir := t.TempDir()
	setup := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v %s", args, err, out)
		}
	}
	setup("init", "-q")
	names := []string{"a b", "new\nline", "non\xffutf8", "ü"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := gitx.New(gitx.Options{CredentialHelper: "!true"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Run(context.Background(), dir, "status", "--porcelain=v2", "-z", "--untracked-files=all")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := gitx.ParseStatusV2(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		if e.Kind != '?' {
			t.Errorf("unexpected %+v", e)
		}
		got = append(got, string(e.Path))
	}
	slices.Sort(got)
	want := slices.Clone(names)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("paths %q, want %q", got, want)
	}
}

func TestPathStringAndBytesValue(t *testing.T) {
	if s, err := gitx.PathString([]byte("dir/ü file\n")); err != nil || s != "dir/ü file\n" {
		t.Fatalf("PathString = %q, %v", s, err)
	}
	_, err := gitx.PathString([]byte("bad\xff"))
	var nu *gitx.NonUTF8PathError
	if !errors.As(err, &nu) || err.Error() == "" || string(nu.Path) != "bad\xff" {
		t.Fatalf("err = %v", err)
	}
	// Valid UTF-8 stays a string; anything else becomes a hex object, and
	// both encode canonically and distinctly.
	a, b := gitx.BytesValue([]byte("ab")), gitx.BytesValue([]byte{0x61, 0xff})
	ea, err := canon.Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := canon.Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(ea) != `"ab"` || string(eb) != `{"hex":"61ff"}` {
		t.Fatalf("encodings %s %s", ea, eb)
	}
	// A UTF-8 string that spells a hex object is still a different value.
	ec, _ := canon.Encode(gitx.BytesValue([]byte(`{"hex":"61ff"}`)))
	if string(ec) == string(eb) {
		t.Fatal("BytesValue is not injective")
	}
}
