package ghsim

import (
	"net"
	"net/http"
	"strings"
	"time"
)

// Transport returns an http.RoundTripper that delivers every request to the
// simulator (starting it if needed) while keeping the request's original
// Host and scheme visible to it. A go-gh client configured for github.com
// or an enterprise host therefore talks to the simulator unchanged, its
// token is attached as for the real host, and Link headers come back naming
// that host, so following them keeps working.
//
//	api.NewRESTClient(api.ClientOptions{Host: "github.com", AuthToken: "t", Transport: sim.Transport()})
func (s *Server) Transport() http.RoundTripper {
	s.Start()
	host := s.Host()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.transport == nil {
		s.transport = &http.Transport{
			Proxy:                 nil,
			DialContext:           (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			MaxIdleConnsPerHost:   16,
			IdleConnTimeout:       30 * time.Second,
			ResponseHeaderTimeout: 0,
		}
	}
	return &simTransport{host: host, base: s.transport}
}

type simTransport struct {
	host string
	base *http.Transport
}

func (t *simTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	if r.Host == "" {
		r.Host = req.URL.Host
	}
	if req.URL.Scheme != "" {
		r.Header.Set("X-Forwarded-Proto", strings.ToLower(req.URL.Scheme))
	}
	r.URL.Scheme = "http"
	r.URL.Host = t.host
	return t.base.RoundTrip(r)
}
