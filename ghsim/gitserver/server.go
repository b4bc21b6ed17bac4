// Package gitserver serves bare git repositories over HTTPS on loopback with
// git's own smart-HTTP implementation (git http-backend as a CGI program), so
// tests and the demo fetch and push through the same https-only runner the
// product uses against github.com.
//
// The TLS certificate is httptest's; its PEM is written to CAFile for git's
// GIT_SSL_CAINFO. With a Token set, every request needs HTTP basic auth whose
// password is that token, like a private GitHub repository; git obtains it
// from its credential helper, never from a URL or argv.
package gitserver

import (
	"crypto/subtle"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Options configure a Server.
type Options struct {
	// Token, when non-empty, is the password every request must carry.
	Token string
	// Root is the directory holding owner/repo.git; empty means a new
	// temporary directory removed by Close.
	Root string
	// AfterPush, if set, runs after every successful receive-pack request
	// (a push) with the refs it changed, so a simulator can update its
	// model of the repository and keep a log of pushes.
	AfterPush func(owner, repo string, updates []RefUpdate)
}

// RefUpdate is one ref a push changed. Old is ZeroSHA for a created ref,
// New is ZeroSHA for a deleted one (git's own spelling).
type RefUpdate struct {
	Ref string `json:"ref"`
	Old string `json:"old"`
	New string `json:"new"`
}

// ZeroSHA stands for "no object" in a RefUpdate.
const ZeroSHA = "0000000000000000000000000000000000000000"

// Server is a running HTTPS git server.
type Server struct {
	// URL is the base, e.g. https://127.0.0.1:41234; repositories live at
	// URL/owner/repo.git.
	URL string
	// Host is URL's host:port, the "test host" a remote URL may name.
	Host string
	// CAFile is the PEM file of the certificate authority git must trust.
	CAFile string
	// Root is the directory of bare repositories.
	Root string

	srv     *httptest.Server
	opts    Options
	git     string
	tmp     string
	mu      sync.Mutex
	pushes  int
	chunked int
	reqs    int
	// pushMu serializes receive-pack requests, so the refs read before and
	// after one push differ by exactly that push's updates.
	pushMu sync.Mutex
}

// Start launches the server on 127.0.0.1.
func Start(opts Options) (*Server, error) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("gitserver: git not found: %w", err)
	}
	execPath, err := exec.Command(gitPath, "--exec-path").Output()
	if err != nil {
		return nil, fmt.Errorf("gitserver: git --exec-path: %w", err)
	}
	backend := filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		return nil, fmt.Errorf("gitserver: %w", err)
	}
	tmp, err := os.MkdirTemp("", "ghsim-git-")
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, git: gitPath, tmp: tmp, Root: opts.Root}
	if s.Root == "" {
		s.Root = filepath.Join(tmp, "repos")
		if err := os.Mkdir(s.Root, 0o755); err != nil {
			os.RemoveAll(tmp)
			return nil, err
		}
	}
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	cgiHandler := &cgi.Handler{
		Path: backend,
		Env: []string{
			"GIT_PROJECT_ROOT=" + s.Root,
			"GIT_HTTP_EXPORT_ALL=1",
			// The server's git must not pick up the host's configuration.
			"GIT_CONFIG_NOSYSTEM=1",
			"GIT_CONFIG_GLOBAL=/dev/null",
			"HOME=" + home,
		},
	}
	s.srv = httptest.NewTLSServer(s.handler(cgiHandler))
	s.URL = s.srv.URL
	s.Host = strings.TrimPrefix(s.srv.URL, "https://")
	// The CA gets a directory of its own: gitx makes that directory git's
	// CA path, so nothing else there must look like a certificate.
	caDir := filepath.Join(tmp, "ca")
	if err := os.Mkdir(caDir, 0o755); err != nil {
		s.Close()
		return nil, err
	}
	s.CAFile = filepath.Join(caDir, "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.srv.Certificate().Raw})
	if err := os.WriteFile(s.CAFile, pemBytes, 0o644); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close stops the server and removes its temporary files (and the
// repositories, when Root was not given).
func (s *Server) Close() {
	s.srv.Close()
	os.RemoveAll(s.tmp)
}

// RepoURL is the clone/push URL of owner/repo.
func (s *Server) RepoURL(owner, repo string) string {
	return s.URL + "/" + owner + "/" + repo + ".git"
}

// RepoDir is the bare repository directory of owner/repo.
func (s *Server) RepoDir(owner, repo string) string {
	return filepath.Join(s.Root, owner, repo+".git")
}

// ChunkedPushes counts receive-pack requests whose body came without a
// Content-Length (chunked), as git sends a pack over http.postBuffer.
func (s *Server) ChunkedPushes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chunked
}

// Pushes counts successful receive-pack requests so far.
func (s *Server) Pushes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pushes
}

// Requests counts every HTTP request the server received (fetches,
// ls-remote, pushes, refused ones): a caller that must do no git network
// operation checks that it stays unchanged.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reqs
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// CreateRepo creates an empty bare repository whose default branch is
// defaultBranch and which accepts pushes over HTTP.
func (s *Server) CreateRepo(owner, repo, defaultBranch string) (string, error) {
	if !nameRE.MatchString(owner) || !nameRE.MatchString(repo) || strings.HasSuffix(repo, ".git") {
		return "", fmt.Errorf("gitserver: invalid repository name %q/%q", owner, repo)
	}
	dir := s.RepoDir(owner, repo)
	if _, err := os.Stat(dir); err == nil {
		return "", fmt.Errorf("gitserver: %s/%s already exists", owner, repo)
	}
	steps := [][]string{
		{"init", "-q", "--bare", "--initial-branch=" + defaultBranch, dir},
		{"-C", dir, "config", "http.receivepack", "true"},
	}
	for _, args := range steps {
		cmd := exec.Command(s.git, args...)
		cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=/dev/null", "PATH=" + os.Getenv("PATH")}
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("gitserver: git %s: %v: %s", args[0], err, out)
		}
	}
	return dir, nil
}

// repoPathRE captures owner and repo from a smart-HTTP request path.
var repoPathRE = regexp.MustCompile(`^/([^/]+)/([^/]+)\.git/`)

func (s *Server) handler(backend http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs++
		s.mu.Unlock()
		if s.opts.Token != "" && !s.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Basic realm="ghsim"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		m := repoPathRE.FindStringSubmatch(r.URL.Path)
		if m == nil || strings.Contains(r.URL.Path, "/../") {
			http.NotFound(w, r)
			return
		}
		push := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-receive-pack")
		if push && r.ContentLength < 0 {
			s.mu.Lock()
			s.chunked++
			s.mu.Unlock()
		}
		if len(r.TransferEncoding) > 0 {
			spooled, cleanup, err := s.spoolBody(r)
			if err != nil {
				http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
				return
			}
			defer cleanup()
			r = spooled
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		if !push {
			backend.ServeHTTP(rec, r)
			return
		}
		s.pushMu.Lock()
		defer s.pushMu.Unlock()
		dir := filepath.Join(s.Root, m[1], m[2]+".git")
		before, beforeErr := s.refs(dir)
		backend.ServeHTTP(rec, r)
		if rec.status != http.StatusOK {
			return
		}
		var updates []RefUpdate
		if after, err := s.refs(dir); err == nil && beforeErr == nil {
			updates = diffRefs(before, after)
		}
		s.mu.Lock()
		s.pushes++
		s.mu.Unlock()
		if s.opts.AfterPush != nil {
			s.opts.AfterPush(m[1], m[2], updates)
		}
	})
}

// refs reads every ref of the bare repository dir.
func (s *Server) refs(dir string) (map[string]string, error) {
	cmd := exec.Command(s.git, "-C", dir, "for-each-ref", "--format=%(objectname) %(refname)")
	cmd.Env = []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=/dev/null", "PATH=" + os.Getenv("PATH")}
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	refs := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if sha, ref, ok := strings.Cut(line, " "); ok {
			refs[ref] = sha
		}
	}
	return refs, nil
}

// diffRefs lists the refs whose value changed, sorted by ref.
func diffRefs(before, after map[string]string) []RefUpdate {
	var out []RefUpdate
	for ref, sha := range after {
		if old, ok := before[ref]; !ok {
			out = append(out, RefUpdate{Ref: ref, Old: ZeroSHA, New: sha})
		} else if old != sha {
			out = append(out, RefUpdate{Ref: ref, Old: old, New: sha})
		}
	}
	for ref, old := range before {
		if _, ok := after[ref]; !ok {
			out = append(out, RefUpdate{Ref: ref, Old: old, New: ZeroSHA})
		}
	}
	slices.SortFunc(out, func(a, b RefUpdate) int { return strings.Compare(a.Ref, b.Ref) })
	return out
}

// spoolBody copies a chunked request body to a temporary file and returns
// the request with that file as a body of known length. Go's CGI host
// refuses chunked bodies (HTTP 400), and git sends every pack larger than
// http.postBuffer chunked, so without this a push over 1 MiB fails with
// "unexpected disconnect while reading sideband packet". A file, not
// memory, so that a push of any size fits.
func (s *Server) spoolBody(r *http.Request) (*http.Request, func(), error) {
	f, err := os.CreateTemp(s.tmp, "body-")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() {
		f.Close()
		os.Remove(f.Name())
	}
	n, err := io.Copy(f, r.Body)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	out := r.Clone(r.Context())
	out.Body = f
	out.ContentLength = n
	out.TransferEncoding = nil
	out.Header.Del("Transfer-Encoding")
	return out, cleanup, nil
}

func (s *Server) authorized(r *http.Request) bool {
	_, pass, ok := r.BasicAuth()
	if !ok {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(pass), []byte(s.opts.Token)) == 1
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
