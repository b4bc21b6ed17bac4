package statestore

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func envOf(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func TestRoot(t *testing.T) {
	home := func() (string, error) { return "/home/u", nil }
	noHome := func() (string, error) { return "", errors.New("no home") }
	cases := []struct {
		name string
		env  map[string]string
		home func() (string, error)
		want string
		err  bool
	}{
		{"override wins", map[string]string{EnvStateDir: "/srv/st", "XDG_STATE_HOME": "/x"}, home, "/srv/st", false},
		{"xdg", map[string]string{"XDG_STATE_HOME": "/x/state"}, home, "/x/state/gh-prloop", false},
		{"relative xdg ignored", map[string]string{"XDG_STATE_HOME": "rel"}, home, "/home/u/.local/state/gh-prloop", false},
		{"home default", nil, home, "/home/u/.local/state/gh-prloop", false},
		{"no home", nil, noHome, "", true},
	}
	for _, c := range cases {
		got, err := Root(envOf(c.env), c.home)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("%s: got %q, %v; want %q (err %v)", c.name, got, err, c.want, c.err)
		}
	}
	got, err := Root(envOf(map[string]string{EnvStateDir: "rel/dir"}), home)
	if err != nil || !filepath.IsAbs(got) || !strings.HasSuffix(got, "rel/dir") {
		t.Errorf("relative override: %q %v", got, err)
	}
}

func TestDirName(t *testing.T) {
	cases := map[string]string{
		"plan/0123456789abcdef0123456789abcdef": "plan-0123456789abcdef0123456789abcdef-",
		"Owner/Repo#12 run":                     "owner-repo-12-run-",
		"../../etc/passwd":                      "etc-passwd-",
		"...":                                   "",
		"ключ":                                  "",
	}
	for key, prefix := range cases {
		d := DirName(key)
		if !strings.HasPrefix(d, prefix) || len(d) != len(prefix)+digestHex {
			t.Errorf("DirName(%q) = %q, want %q + 16 hex", key, d, prefix)
		}
		if strings.ContainsAny(d, "/\\") || strings.HasPrefix(d, ".") {
			t.Errorf("DirName(%q) = %q is not one safe path element", key, d)
		}
	}
	if DirName("a/b") == DirName("a-b") {
		t.Error("keys with the same readable part must get different directories")
	}
	if d := DirName(strings.Repeat("x", 500)); len(d) > readableMax+1+digestHex {
		t.Errorf("too long: %d", len(d))
	}
}

func TestPlanKey(t *testing.T) {
	if k, err := PlanKey("0123456789abcdef0123456789abcdef"); err != nil || k != "plan/0123456789abcdef0123456789abcdef" {
		t.Errorf("got %q %v", k, err)
	}
	for _, bad := range []string{"", "0123456789ABCDEF0123456789ABCDEF", "../x", strings.Repeat("a", 33)} {
		if _, err := PlanKey(bad); err == nil {
			t.Errorf("PlanKey(%q): want error", bad)
		}
	}
}
