package ghsim

import (
	"encoding/base64"
	"encoding/binary"
)

// GitHub's global node ids carry a type prefix ("PR_", "IC_", "PRRT_", ...)
// followed by an opaque payload. Clients must treat them as opaque; the
// simulator keeps the prefixes so that logs look like GitHub's.
const (
	prefixUser          = "U"
	prefixBot           = "BOT"
	prefixOrg           = "O"
	prefixRepo          = "R"
	prefixPull          = "PR"
	prefixIssueComment  = "IC"
	prefixReview        = "PRR"
	prefixReviewComment = "PRRC"
	prefixThread        = "PRRT"
	prefixReaction      = "REA"
	prefixCheckRun      = "CR"
	prefixStatus        = "SC"
)

// nodeRef is what a node id resolves to.
type nodeRef struct {
	kind string // GraphQL type name
	v    any
	pull *pullState // owning PR where there is one
}

// ids hands out database ids per kind, starting from GitHub-sized numbers so
// that clients never get away with assuming small ids.
type ids struct {
	next map[string]int64
	seq  uint64
}

func newIDs() *ids {
	return &ids{next: map[string]int64{
		"repo":           700000001,
		"pull":           1900000001,
		"issue-comment":  2600000001,
		"review":         2300000001,
		"review-comment": 1700000001,
		"reaction":       280000001,
		"check-run":      17000000001,
		"status":         31000000001,
		"account":        90000001,
	}}
}

func (g *ids) take(kind string) int64 {
	id := g.next[kind]
	g.next[kind] = id + 1
	return id
}

// observe keeps the counter above an explicitly seeded id.
func (g *ids) observe(kind string, id int64) {
	if id >= g.next[kind] {
		g.next[kind] = id + 1
	}
}

// claim returns id when a seed set one, keeping the counter above it, and
// otherwise the next id of kind.
func (g *ids) claim(kind string, id int64) int64 {
	if id == 0 {
		return g.take(kind)
	}
	g.observe(kind, id)
	return id
}

func (g *ids) node(prefix string) string {
	g.seq++
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], g.seq)
	return prefix + "_kwDOsim" + base64.RawURLEncoding.EncodeToString(b[2:])
}
