package local_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/local"
)

// lfsAttributes is what `git lfs track "*.bin"` writes.
const lfsAttributes = "*.bin filter=lfs diff=lfs merge=lfs -text\n"

// installGlobalLFS configures git-lfs the way `git lfs install` does: in
// the user's global configuration, which the sanitized runner never reads.
// The clean command leaves a marker, so a test can also prove it never ran.
func installGlobalLFS(t *testing.T) (marker string) {
	home := t.TempDir()
	marker = filepath.Join(home, "LFS-CLEAN-RAN")
	cfg := "[filter \"lfs\"]\n\tclean = touch " + marker + "; cat\n\tsmudge = cat\n\tprocess = false\n\trequired = true\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	return marker
}

// A filter attribute whose driver the repository does not configure (git-lfs
// above all) is refused, under the safe profile and under accepted risk
// alike: the sanitized runner would not run the filter, and the file would
// be committed raw instead of as what the user's git stores.
func TestUnconfiguredFilterDriverIsRefused(t *testing.T) {
	marker := installGlobalLFS(t)
	for _, acceptRisk := range []bool{false, true} {
		e := newEnv(t, nil)
		e.write(".gitattributes", "*.txt text\n"+lfsAttributes)
		e.write("assets/big.bin", strings.Repeat("\x00\x01large binary\n", 64))
		o := e.opts()
		o.AcceptRisk = acceptRisk
		obs, err := local.Observe(context.Background(), o)
		if err == nil {
			t.Fatalf("accept risk %v: Observe succeeded with paths %q", acceptRisk, obs.Paths)
		}
		wantRefusal(t, err, local.CodeUnconfiguredFilter, `"lfs" (e.g. on "assets/big.bin")`)
		for _, why := range []string{"global", "committed as its raw content", "git config --local"} {
			wantRefusal(t, err, local.CodeUnconfiguredFilter, why)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the globally configured LFS clean filter ran")
	}
}

// The refusal is for a driver the repository leaves undefined, not for
// every filter attribute: "filter" set or unset names no driver, and a
// driver the repository defines with only a smudge command runs nothing on
// status, diff or add. An attribute on no existing path asks nothing.
func TestFilterAttributesTheSafeProfileAccepts(t *testing.T) {
	for name, c := range map[string]struct {
		attrs  string
		config []string
	}{
		"filter set without a driver": {attrs: "*.bin filter\n*.txt -filter\n"},
		"smudge-only driver":          {attrs: lfsAttributes, config: []string{"filter.lfs.smudge", "cat"}},
		"no path matches":             {attrs: "*.nomatch filter=lfs\n"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, nil)
			if c.config != nil {
				plainGit(t, e.work, append([]string{"config"}, c.config...)...)
			}
			e.write(".gitattributes", c.attrs)
			e.write("assets/big.bin", "binary\n")
			if _, err := local.Observe(context.Background(), e.opts()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
