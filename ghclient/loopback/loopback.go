// Package loopback routes GitHub API requests to a server on this machine
// (the simulator, or an httptest server). It exists for tests and the demo
// only: production builds talk to the host go-gh derives from the gh host.
package loopback

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
)

// Transport rewrites the scheme and host of every request to Target and
// sends it through Base. The path, query and Host header are kept, so the
// server sees the request exactly as addressed to GitHub (e.g. Host:
// api.github.com, path /graphql or /api/v3/... for an enterprise host).
type Transport struct {
	Target *url.URL
	Base   http.RoundTripper
}

// New accepts only loopback targets (127.0.0.0/8, ::1, localhost), so a
// misconfiguration can never send a token to another machine.
func New(target string) (*Transport, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("loopback target %q: scheme must be http or https", target)
	}
	host := u.Hostname()
	if host != "localhost" {
		ip := net.ParseIP(host)
		if ip == nil || !ip.IsLoopback() {
			return nil, fmt.Errorf("loopback target %q is not a loopback address", target)
		}
	}
	return &Transport{Target: &url.URL{Scheme: u.Scheme, Host: u.Host}, Base: http.DefaultTransport}, nil
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if r.Host == "" {
		r.Host = req.URL.Host
	}
	r.URL.Scheme = t.Target.Scheme
	r.URL.Host = t.Target.Host
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}
