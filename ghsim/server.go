package ghsim

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Options configures a Server. The zero value is usable.
type Options struct {
	// Clock is the simulator's only source of time (default time.Now).
	Clock func() time.Time
	// Viewer is the account every accepted token authenticates as unless
	// AddToken says otherwise (default: a User "monalisa", id 1001).
	Viewer Account
	// CoreLimit and GraphQLLimit are the hourly primary limits (default 5000).
	CoreLimit    int
	GraphQLLimit int
	// WebURL and APIURL are the origins written into html_url/url fields
	// (default https://github.com and https://api.github.com), so that
	// payloads look exactly like github.com's.
	WebURL string
	APIURL string
	// Codex is the default scenario the scripted Codex bot follows; the
	// zero value is Findings with DefaultFindings().
	Codex Scenario
	// Logf, when set, receives one line per request.
	Logf func(format string, args ...any)
}

// Server is the simulator. All state is guarded by one mutex; every request
// runs its handler under it, so the model never needs finer locking.
type Server struct {
	opts  Options
	clock func() time.Time

	mu           sync.Mutex
	ids          *ids
	accounts     map[int64]*Account
	accountOrder []int64
	viewer       int64
	tokens       map[string]int64
	repos        map[string]*repoState // key: lowercase owner/name
	nodes        map[string]nodeRef
	commits      map[string]*Commit
	rate         map[string]*rateBucket
	stats        Stats
	faults       []*faultState
	codex        codexState
	gates        *GateScript // gates.go
	merger       Merger      // rest_pulls_state.go
	timers       []timer     // timers.go
	timerSeq     uint64
	reqSeq       uint64
	routes       []route

	startMu   sync.Mutex // guards ts
	ts        *httptest.Server
	transport *http.Transport
	done      chan struct{}
	once      sync.Once
}

// New builds a simulator with the Codex bot and the viewer registered.
// Call Start to listen, or use the Server directly as an http.Handler.
func New(opts Options) *Server {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Viewer.Login == "" {
		opts.Viewer = Account{Login: "monalisa", ID: 1001, Type: TypeUser, Name: "Mona Lisa"}
	}
	if opts.Viewer.Type == "" {
		opts.Viewer.Type = TypeUser
	}
	if opts.CoreLimit <= 0 {
		opts.CoreLimit = 5000
	}
	if opts.GraphQLLimit <= 0 {
		opts.GraphQLLimit = 5000
	}
	if opts.WebURL == "" {
		opts.WebURL = "https://github.com"
	}
	if opts.APIURL == "" {
		opts.APIURL = "https://api.github.com"
	}
	opts.WebURL = strings.TrimRight(opts.WebURL, "/")
	opts.APIURL = strings.TrimRight(opts.APIURL, "/")
	s := &Server{
		opts:     opts,
		clock:    opts.Clock,
		ids:      newIDs(),
		accounts: map[int64]*Account{},
		tokens:   map[string]int64{},
		repos:    map[string]*repoState{},
		nodes:    map[string]nodeRef{},
		commits:  map[string]*Commit{},
		done:     make(chan struct{}),
	}
	s.rate = map[string]*rateBucket{
		ResourceCore:    {limit: opts.CoreLimit},
		ResourceGraphQL: {limit: opts.GraphQLLimit},
	}
	s.codex.defaultScenario = opts.Codex
	s.addAccountLocked(CodexBot())
	v := s.addAccountLocked(opts.Viewer)
	s.viewer = v.ID
	s.routes = s.restRoutes()
	return s
}

// Start listens on 127.0.0.1 with a random port.
func (s *Server) Start() {
	s.startMu.Lock()
	defer s.startMu.Unlock()
	if s.ts == nil {
		s.ts = httptest.NewServer(s)
	}
}

// URL is the base URL of the running server, e.g. http://127.0.0.1:41234.
// REST is served under it and under URL()+"/api/v3"; GraphQL at
// URL()+"/graphql" and URL()+"/api/graphql".
func (s *Server) URL() string {
	s.startMu.Lock()
	defer s.startMu.Unlock()
	if s.ts == nil {
		return ""
	}
	return s.ts.URL
}

// Host is URL without its scheme ("127.0.0.1:41234").
func (s *Server) Host() string {
	return strings.TrimPrefix(s.URL(), "http://")
}

// Close stops the listener and wakes every request held by a delay fault.
func (s *Server) Close() {
	s.once.Do(func() { close(s.done) })
	s.startMu.Lock()
	ts := s.ts
	s.startMu.Unlock()
	if ts != nil {
		ts.Close()
	}
	s.mu.Lock()
	tr := s.transport
	s.mu.Unlock()
	if tr != nil {
		tr.CloseIdleConnections()
	}
}

func (s *Server) now() time.Time {
	return s.clock().UTC().Truncate(time.Second)
}

// ServeHTTP makes the simulator usable in-process (e.g. behind a custom
// http.RoundTripper) without a listener.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == ClockPath {
		s.serveClock(w, r) // simclock.go: the simulated time, for a client that must agree with it
		return
	}
	if r.URL.Path == StatePath {
		s.serveState(w, r) // state.go: the simulator's own view, not GitHub's API
		return
	}
	path, prefix := splitPrefix(r.URL.Path)
	kind := KindREST
	if path == "/graphql" {
		kind = KindGraphQL
	}
	s.mu.Lock()
	s.reqSeq++
	reqID := requestID(s.reqSeq)
	// The bot's clock-driven steps land before the request is answered, so
	// a client polling after the clock moved sees them, as on GitHub.
	s.advanceWorldLocked(s.now())
	f := s.takeFaultLocked(r.Method, path, kind)
	s.mu.Unlock()

	w.Header().Set("X-GitHub-Request-Id", reqID)
	if s.opts.Logf != nil {
		s.opts.Logf("ghsim %s %s %s", reqID, r.Method, r.URL.RequestURI())
	}
	c := &call{s: s, w: w, r: r, path: path, prefix: prefix, kind: kind, reqID: reqID}
	if f != nil && (f.Kind == FaultStatusAfter || f.Kind == FaultDropAfter) {
		s.serveThenFail(c, f)
		return
	}
	if f != nil && s.applyFault(c, f) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.authenticateLocked(c) {
		return
	}
	if kind == KindGraphQL {
		s.serveGraphQLLocked(c)
		return
	}
	s.serveRESTLocked(c)
}

// splitPrefix strips the GitHub Enterprise style "/api/v3" prefix and maps
// "/api/graphql" to "/graphql", returning the prefix it removed so that Link
// headers can keep it.
func splitPrefix(p string) (path, prefix string) {
	switch {
	case p == "/api/graphql":
		return "/graphql", "/api"
	case strings.HasPrefix(p, "/api/v3/"):
		return strings.TrimPrefix(p, "/api/v3"), "/api/v3"
	case p == "/api/v3":
		return "/", "/api/v3"
	}
	return p, ""
}

func requestID(n uint64) string {
	return fmt.Sprintf("5E1D:%04X:%06X:%06X:%08X", n%0xFFFF, n*7919%0xFFFFFF, n*104729%0xFFFFFF, 0x65000000+n)
}
