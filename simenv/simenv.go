// Package simenv is the environment hook that points a gh-prloop process at
// a loopback GitHub simulator (`gh-prloop sim`, ghsim/standalone): with its
// variables set, the process's GitHub client talks to the simulator's API
// with the simulator's token, and its git runner trusts the simulator's CA,
// answers the git server's credential prompt with the simulator's helper,
// and accepts the git server's host:port as the only remote host.
//
// Without any of the variables nothing changes: FromEnv returns nil and the
// production client and runner are built as always. With some of them, or
// with a URL or host that is not on loopback, FromEnv fails closed, so a
// stray variable can never send a token to another machine. The token is
// never part of an error message.
package simenv

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghclient/loopback"
	"github.com/prloop/gh-prloop/gitx"
)

// The variables, all required together.
const (
	EnvAPIURL   = "GH_PRLOOP_SIM_API_URL"    // http(s)://127.0.0.1:PORT of the API simulator
	EnvToken    = "GH_PRLOOP_SIM_TOKEN"      // the token the simulator accepts
	EnvCAFile   = "GH_PRLOOP_SIM_CA_FILE"    // PEM file of the git server's CA
	EnvGitHost  = "GH_PRLOOP_SIM_GIT_HOST"   // 127.0.0.1:PORT of the git server
	EnvGitCreds = "GH_PRLOOP_SIM_GIT_HELPER" // absolute path of the git credential helper program
)

// EnvClock is optional, and honoured only together with all of Names: the
// URL of the simulator's clock (<api_url>/_sim/clock). With it, Clock reads
// "now" from the simulator, whose time may run faster than the wall clock
// (`gh-prloop sim --time-scale`), so that deadlines computed from the
// timestamps it writes agree with it. Alone it is an error.
const EnvClock = "GH_PRLOOP_SIM_CLOCK"

// Names lists the variables in a fixed order.
var Names = []string{EnvAPIURL, EnvToken, EnvCAFile, EnvGitHost, EnvGitCreds}

// Hook is a validated simulator environment.
type Hook struct {
	APIURL           string
	Token            string
	CAFile           string
	GitHost          string
	CredentialScript string
	ClockURL         string // optional: EnvClock
}

// Env returns the variables that make a child process use h.
func (h *Hook) Env() map[string]string {
	m := map[string]string{
		EnvAPIURL: h.APIURL, EnvToken: h.Token, EnvCAFile: h.CAFile,
		EnvGitHost: h.GitHost, EnvGitCreds: h.CredentialScript,
	}
	if h.ClockURL != "" {
		m[EnvClock] = h.ClockURL
	}
	return m
}

// FromEnv reads the hook. It returns nil, nil when none of the variables
// is set (production), and an error naming the variable when only some
// are set or one is invalid.
func FromEnv(getenv func(string) string) (*Hook, error) {
	var set, unset []string
	for _, k := range Names {
		if getenv(k) != "" {
			set = append(set, k)
		} else {
			unset = append(unset, k)
		}
	}
	if len(set) == 0 {
		if getenv(EnvClock) != "" {
			return nil, fmt.Errorf("simulator environment: %s set without %s; set all or none", EnvClock, strings.Join(Names, ", "))
		}
		return nil, nil
	}
	if len(unset) > 0 {
		return nil, fmt.Errorf("simulator environment: %s set but %s missing; set all or none", strings.Join(set, ", "), strings.Join(unset, ", "))
	}
	h := &Hook{
		APIURL: getenv(EnvAPIURL), Token: getenv(EnvToken), CAFile: getenv(EnvCAFile),
		GitHost: getenv(EnvGitHost), CredentialScript: getenv(EnvGitCreds), ClockURL: getenv(EnvClock),
	}
	if err := h.validate(); err != nil {
		return nil, fmt.Errorf("simulator environment: %w", err)
	}
	return h, nil
}

func (h *Hook) validate() error {
	u, err := url.Parse(h.APIURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.User != nil || u.RawQuery != "" {
		return fmt.Errorf("%s=%q: want http://HOST:PORT", EnvAPIURL, h.APIURL)
	}
	if !isLoopback(u.Hostname()) {
		return fmt.Errorf("%s=%q: not a loopback address", EnvAPIURL, h.APIURL)
	}
	if h.ClockURL != "" {
		c, err := url.Parse(h.ClockURL)
		if err != nil || c.Scheme != u.Scheme || c.Host != u.Host || c.Path != clockPath || c.User != nil || c.RawQuery != "" {
			return fmt.Errorf("%s=%q: want %s%s", EnvClock, h.ClockURL, strings.TrimRight(h.APIURL, "/"), clockPath)
		}
	}
	host, port, err := net.SplitHostPort(h.GitHost)
	if err != nil || port == "" {
		return fmt.Errorf("%s=%q: want HOST:PORT", EnvGitHost, h.GitHost)
	}
	if !isLoopback(host) {
		return fmt.Errorf("%s=%q: not a loopback address", EnvGitHost, h.GitHost)
	}
	if strings.ContainsAny(h.Token, " \t\r\n\x00") {
		return fmt.Errorf("%s contains white space or a NUL byte", EnvToken) // never the value
	}
	for _, f := range []struct{ name, path string }{{EnvCAFile, h.CAFile}, {EnvGitCreds, h.CredentialScript}} {
		if !filepath.IsAbs(f.path) {
			return fmt.Errorf("%s=%q: not an absolute path", f.name, f.path)
		}
		st, err := os.Stat(f.path)
		if err != nil {
			return fmt.Errorf("%s: %v", f.name, err)
		}
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s=%q: not a regular file", f.name, f.path)
		}
	}
	return nil
}

// isLoopback accepts 127.0.0.0/8, ::1 and localhost, as loopback.New does.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ClientOptions are the GitHub client's options: github.com's URLs and
// payloads, sent to the simulator with its token.
func (h *Hook) ClientOptions(onWait func(string, time.Duration)) (ghclient.Options, error) {
	lb, err := loopback.New(h.APIURL)
	if err != nil {
		return ghclient.Options{}, fmt.Errorf("simulator environment: %s: %w", EnvAPIURL, err)
	}
	return ghclient.Options{Host: "github.com", Token: h.Token, BaseTransport: lb, OnWait: onWait}, nil
}

// GitOptions are the git runner's options: the simulator's CA and
// credential helper instead of gh's.
func (h *Hook) GitOptions() gitx.Options {
	return gitx.Options{CAFile: h.CAFile, CredentialHelper: gitx.HelperForScript(h.CredentialScript)}
}
