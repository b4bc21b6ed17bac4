package ghsim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// call is one request in flight.
type call struct {
	s      *Server
	w      http.ResponseWriter
	r      *http.Request
	path   string // without the /api/v3 prefix
	prefix string
	kind   RequestKind
	reqID  string
	viewer *Account
	route  string // OpenAPI-style pattern of the matched REST route
	params map[string]string
}

func commonHeaders(h http.Header) {
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	h.Set("X-GitHub-Api-Version-Selected", "2022-11-28")
	h.Set("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP")
	h.Set("Server", "github.com")
	h.Set("X-OAuth-Scopes", "gist, read:org, repo, workflow")
	h.Set("X-Accepted-OAuth-Scopes", "repo")
}

// encodeJSON does not HTML-escape: GitHub sends "<!--" and "&" literally,
// and bodies here routinely carry HTML comments.
func encodeJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("ghsim: unencodable response: " + err.Error())
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func writeBody(w http.ResponseWriter, status int, v any) {
	body := encodeJSON(v)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// errorBody is GitHub's REST error document.
func errorBody(status int, message, doc string) map[string]any {
	return map[string]any{
		"message":           message,
		"documentation_url": doc,
		"status":            strconv.Itoa(status),
	}
}

// sendJSON answers a REST call. A 200 GET carries an ETag and honours
// If-None-Match with a 304 that does not spend rate limit, as on GitHub.
func (c *call) sendJSON(status int, v any) {
	s := c.s
	h := c.w.Header()
	commonHeaders(h)
	body := encodeJSON(v)
	s.stats.REST++
	s.countRouteLocked(c.route)
	if c.r.Method == http.MethodGet && status == http.StatusOK {
		etag := etagFor(body)
		h.Set("ETag", etag)
		h.Set("Cache-Control", "private, max-age=60, s-maxage=60")
		if etagMatches(c.r.Header.Get("If-None-Match"), etag) {
			s.stats.REST304++
			s.rateHeadersLocked(h, ResourceCore)
			h.Del("Content-Type")
			c.w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	s.bucketLocked(ResourceCore, s.now()).used++
	s.rateHeadersLocked(h, ResourceCore)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	c.w.WriteHeader(status)
	_, _ = c.w.Write(body)
}

func (c *call) sendError(status int, message, doc string) {
	c.sendJSON(status, errorBody(status, message, doc))
}

func (c *call) notFound() {
	c.sendError(http.StatusNotFound, "Not Found", "https://docs.github.com/rest")
}

// validationFailed is GitHub's 422 shape.
func (c *call) validationFailed(doc string, errs ...map[string]any) {
	body := errorBody(http.StatusUnprocessableEntity, "Validation Failed", doc)
	list := make([]any, len(errs))
	for i, e := range errs {
		list[i] = e
	}
	body["errors"] = list
	c.sendJSON(http.StatusUnprocessableEntity, body)
}

// decodeBody reads a JSON request body into v, answering 400 when it is not
// JSON (GitHub's "Problems parsing JSON").
func (c *call) decodeBody(v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(c.w, c.r.Body, 1<<20))
	if err := dec.Decode(v); err != nil {
		c.sendError(http.StatusBadRequest, "Problems parsing JSON", "https://docs.github.com/rest")
		return false
	}
	return true
}

// requiredBody decodes a {"body": …} request and answers GitHub's
// missing_field validation error for resource when the body is blank.
func (c *call) requiredBody(doc, resource string) (string, bool) {
	var in struct {
		Body string `json:"body"`
	}
	if !c.decodeBody(&in) {
		return "", false
	}
	if strings.TrimSpace(in.Body) == "" {
		c.validationFailed(doc, map[string]any{"resource": resource, "field": "body", "code": "missing_field"})
		return "", false
	}
	return in.Body, true
}
