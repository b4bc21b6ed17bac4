package ghsim

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// pageOf slices items by per_page (default 30, max 100) and page (1-based)
// and sets GitHub's Link header. Links are absolute and reuse the request's
// host, scheme and /api/v3 prefix, so a client can follow them verbatim.
func (c *call) pageOf(items []any) []any {
	q := c.r.URL.Query()
	perPage := atoiDefault(q.Get("per_page"), 30)
	if perPage < 1 {
		perPage = 30
	}
	if perPage > 100 {
		perPage = 100
	}
	page := atoiDefault(q.Get("page"), 1)
	if page < 1 {
		page = 1
	}
	last := (len(items) + perPage - 1) / perPage
	if last < 1 {
		last = 1
	}
	var links []string
	if page > 1 {
		links = append(links, c.link(page-1, "prev"))
	}
	if page < last {
		links = append(links, c.link(page+1, "next"), c.link(last, "last"))
	}
	if page > 1 {
		links = append(links, c.link(1, "first"))
	}
	if len(links) > 0 {
		c.w.Header().Set("Link", strings.Join(links, ", "))
	}
	start := (page - 1) * perPage
	if start >= len(items) {
		return []any{}
	}
	return items[start:min(start+perPage, len(items))]
}

func (c *call) link(page int, rel string) string {
	u := url.URL{Scheme: "http", Host: c.r.Host, Path: c.r.URL.Path}
	if c.r.TLS != nil {
		u.Scheme = "https"
	}
	if p := c.r.Header.Get("X-Forwarded-Proto"); p != "" {
		u.Scheme = p
	}
	q := c.r.URL.Query()
	q.Set("page", strconv.Itoa(page))
	u.RawQuery = q.Encode()
	return fmt.Sprintf("<%s>; rel=%q", u.String(), rel)
}

func atoiDefault(v string, def int) int {
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return def
	}
	return n
}
