package simenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const token = "ghp_secretSimToken0123456789abcdefABCDEF"

func files(t *testing.T) (ca, helper string) {
	t.Helper()
	dir := t.TempDir()
	ca, helper = filepath.Join(dir, "ca.pem"), filepath.Join(dir, "helper.sh")
	for _, f := range []string{ca, helper} {
		if err := os.WriteFile(f, []byte("x"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return ca, helper
}

func full(t *testing.T) map[string]string {
	ca, helper := files(t)
	return map[string]string{
		EnvAPIURL: "http://127.0.0.1:4000", EnvToken: token, EnvCAFile: ca,
		EnvGitHost: "127.0.0.1:4001", EnvGitCreds: helper,
	}
}

func lookup(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestUnsetMeansProduction(t *testing.T) {
	h, err := FromEnv(lookup(nil))
	if h != nil || err != nil {
		t.Fatalf("no variables: %+v %v, want nil nil", h, err)
	}
}

func TestCompleteLoopbackEnvironmentIsAccepted(t *testing.T) {
	env := full(t)
	h, err := FromEnv(lookup(env))
	if err != nil || h == nil {
		t.Fatalf("%v", err)
	}
	for k, v := range h.Env() {
		if env[k] != v {
			t.Errorf("Env()[%s] = %q, want %q", k, v, env[k])
		}
	}
	o, err := h.ClientOptions(nil)
	if err != nil || o.Token != token || o.Host != "github.com" || o.BaseTransport == nil {
		t.Fatalf("client options %+v %v", o, err)
	}
	g := h.GitOptions()
	if g.CAFile != env[EnvCAFile] || !strings.Contains(g.CredentialHelper, env[EnvGitCreds]) || !strings.HasPrefix(g.CredentialHelper, "!") {
		t.Fatalf("git options %+v", g)
	}
}

func TestPartialOrNonLoopbackEnvironmentFailsClosedWithoutTheToken(t *testing.T) {
	cases := map[string]struct {
		edit func(map[string]string)
		want string
	}{
		"missing helper":     {func(m map[string]string) { delete(m, EnvGitCreds) }, EnvGitCreds},
		"only the token":     {func(m map[string]string) { clear(m); m[EnvToken] = token }, EnvAPIURL},
		"remote API":         {func(m map[string]string) { m[EnvAPIURL] = "https://api.github.com" }, EnvAPIURL},
		"private API":        {func(m map[string]string) { m[EnvAPIURL] = "http://10.0.0.1:80" }, EnvAPIURL},
		"API with path":      {func(m map[string]string) { m[EnvAPIURL] = "http://127.0.0.1:1/x" }, EnvAPIURL},
		"lookalike host":     {func(m map[string]string) { m[EnvAPIURL] = "http://127.0.0.1.evil.com" }, EnvAPIURL},
		"remote git host":    {func(m map[string]string) { m[EnvGitHost] = "github.com:443" }, EnvGitHost},
		"git host sans port": {func(m map[string]string) { m[EnvGitHost] = "127.0.0.1" }, EnvGitHost},
		"relative CA":        {func(m map[string]string) { m[EnvCAFile] = "ca.pem" }, EnvCAFile},
		"missing helper file": {func(m map[string]string) {
			m[EnvGitCreds] = filepath.Join(filepath.Dir(m[EnvGitCreds]), "nope")
		}, EnvGitCreds},
		"token with newline": {func(m map[string]string) { m[EnvToken] = token + "\nx" }, EnvToken},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			env := full(t)
			c.edit(env)
			h, err := FromEnv(lookup(env))
			if err == nil || h != nil {
				t.Fatalf("accepted: %+v", h)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not name %s", err, c.want)
			}
			if strings.Contains(err.Error(), token) {
				t.Errorf("error %q prints the token", err)
			}
		})
	}
}
