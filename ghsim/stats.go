package ghsim

import "maps"

// RequestKind says which API a request was addressed to.
type RequestKind string

// Request kinds; the empty kind matches both in a fault Match.
const (
	KindREST    RequestKind = "rest"
	KindGraphQL RequestKind = "graphql"
)

// Stats counts what the simulator answered since New or ResetStats.
type Stats struct {
	REST          int            // REST answers, including 304s and errors
	REST304       int            // of which 304 Not Modified (free of rate limit)
	GraphQL       int            // GraphQL answers
	GraphQLPoints int            // GraphQL rate-limit points spent (GitHub's formula, see queryCost)
	Faults        int            // requests answered or delayed by an injected fault
	Unauthorized  int            // 401s
	RateLimited   int            // primary-limit refusals
	ByRoute       map[string]int // "GET /repos/{owner}/{repo}/pulls/{pull_number}" -> n
	ByOperation   map[string]int // GraphQL operation name ("" anonymous) -> n
}

// Stats returns a copy of the request counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.stats
	out.ByRoute = maps.Clone(s.stats.ByRoute)
	out.ByOperation = maps.Clone(s.stats.ByOperation)
	if out.ByRoute == nil {
		out.ByRoute = map[string]int{}
	}
	if out.ByOperation == nil {
		out.ByOperation = map[string]int{}
	}
	return out
}

// ResetStats zeroes the request counters.
func (s *Server) ResetStats() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats = Stats{}
}

func (s *Server) countRouteLocked(route string) {
	if s.stats.ByRoute == nil {
		s.stats.ByRoute = map[string]int{}
	}
	s.stats.ByRoute[route]++
}

func (s *Server) countOperationLocked(name string) {
	if s.stats.ByOperation == nil {
		s.stats.ByOperation = map[string]int{}
	}
	s.stats.ByOperation[name]++
}
