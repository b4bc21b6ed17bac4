package ghsim

import (
	"net/http"
	"strings"
)

// AddToken makes token authenticate as a (registered if new). Once any
// token is added, unknown tokens get 401 "Bad credentials"; before that,
// every non-empty token is the viewer.
func (s *Server) AddToken(token string, a Account) Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	acct := s.addAccountLocked(a)
	s.tokens[token] = acct.ID
	return *acct
}

// SetViewer changes the account that unregistered tokens authenticate as.
func (s *Server) SetViewer(a Account) Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	acct := s.addAccountLocked(a)
	s.viewer = acct.ID
	return *acct
}

// Viewer returns the default authenticated account.
func (s *Server) Viewer() Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *s.accounts[s.viewer]
}

func bearer(h string) string {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok {
		return ""
	}
	switch strings.ToLower(scheme) {
	case "token", "bearer":
		return strings.TrimSpace(tok)
	}
	return ""
}

// authenticateLocked resolves the caller, answering 401 with GitHub's body
// when it cannot.
func (s *Server) authenticateLocked(c *call) bool {
	tok := bearer(c.r.Header.Get("Authorization"))
	id, known := s.tokens[tok]
	switch {
	case tok == "":
		msg, doc := "Requires authentication", "https://docs.github.com/rest"
		if c.kind == KindGraphQL {
			msg = "This endpoint requires you to be authenticated."
			doc = "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql"
		}
		s.unauthorizedLocked(c, msg, doc)
		return false
	case !known && len(s.tokens) > 0:
		s.unauthorizedLocked(c, "Bad credentials", "https://docs.github.com/rest")
		return false
	case !known:
		id = s.viewer
	}
	c.viewer = s.accounts[id]
	return true
}

func (s *Server) unauthorizedLocked(c *call, msg, doc string) {
	s.stats.Unauthorized++
	commonHeaders(c.w.Header())
	writeBody(c.w, http.StatusUnauthorized, errorBody(http.StatusUnauthorized, msg, doc))
}
