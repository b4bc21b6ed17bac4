package ghsim

import (
	"encoding/json"
	"net/http"
	"strconv"
)

type gqlRequest struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
}

// serveGraphQLLocked answers POST /graphql. Every answered request spends
// its point value (GitHub's formula, see queryCost) of the separate
// "graphql" rate limit.
func (s *Server) serveGraphQLLocked(c *call) {
	h := c.w.Header()
	if c.r.Method != http.MethodPost {
		commonHeaders(h)
		writeBody(c.w, http.StatusNotFound, errorBody(http.StatusNotFound, "Not Found", "https://docs.github.com/graphql"))
		return
	}
	var req gqlRequest
	dec := json.NewDecoder(http.MaxBytesReader(c.w, c.r.Body, 1<<20))
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		commonHeaders(h)
		writeBody(c.w, http.StatusBadRequest, errorBody(http.StatusBadRequest, "Problems parsing JSON", "https://docs.github.com/graphql"))
		return
	}
	b := s.bucketLocked(ResourceGraphQL, s.now())
	if b.remaining() == 0 {
		s.stats.RateLimited++
		commonHeaders(h)
		s.rateHeadersLocked(h, ResourceGraphQL)
		writeBody(c.w, http.StatusOK, map[string]any{"errors": []any{map[string]any{
			"type":    "RATE_LIMITED",
			"message": "API rate limit already exceeded for user ID " + strconv.FormatInt(c.viewer.ID, 10) + ".",
		}}})
		return
	}
	s.stats.GraphQL++
	charge := func(points int) {
		// A call is answered once it passed the check above, even when it
		// costs more than what is left; the window then reads as spent.
		b.used = min(b.used+points, b.limit)
		s.stats.GraphQLPoints += points
	}
	var res gqlResult
	if req.Query == "" {
		charge(1)
		res.errors = []*gqlError{{Message: "A query attribute must be specified and must be a string."}}
	} else {
		res = s.executeLocked(c, req.Query, req.OperationName, req.Variables, charge)
	}
	out := &omap{}
	if res.data != nil {
		out.set("data", res.data)
	}
	if len(res.errors) > 0 {
		out.set("errors", res.errors)
	}
	commonHeaders(h)
	s.rateHeadersLocked(h, ResourceGraphQL)
	writeBody(c.w, http.StatusOK, out)
}
