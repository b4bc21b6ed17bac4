package ghsim

import "net/http"

// discardWriter swallows the real answer of a request served before a
// FaultStatusAfter/FaultDropAfter.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardWriter) WriteHeader(int)             {}

// serveThenFail performs the request for real (its effect lands in the
// model), then answers as the fault says.
func (s *Server) serveThenFail(c *call, f *Fault) {
	real := *c
	real.w = &discardWriter{h: http.Header{}}
	s.mu.Lock()
	if s.authenticateLocked(&real) {
		if real.kind == KindGraphQL {
			s.serveGraphQLLocked(&real)
		} else {
			s.serveRESTLocked(&real)
		}
	}
	s.mu.Unlock()
	after := *f
	after.Kind = FaultStatus
	if f.Kind == FaultDropAfter {
		after.Kind = FaultDrop
	}
	s.applyFault(c, &after)
}
