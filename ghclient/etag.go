package ghclient

import (
	"bytes"
	"container/list"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"sync"
)

// etagCache remembers the last 200 body of REST GETs so that a conditional
// request answered 304 (which GitHub does not charge against the rate limit)
// can return it. Keys are the URL plus a keyed hash of the Authorization
// header: the token itself is never stored, and the hash is useless outside
// this process because its key is random.
type etagCache struct {
	mu      sync.Mutex
	key     []byte
	max     int
	order   *list.List // front = most recently used
	entries map[string]*list.Element
}

type etagEntry struct {
	key    string
	etag   string
	header http.Header
	body   []byte
}

func newETagCache(max int) *etagCache {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return &etagCache{key: k, max: max, order: list.New(), entries: map[string]*list.Element{}}
}

func (c *etagCache) keyFor(req *http.Request) string {
	mac := hmac.New(sha256.New, c.key)
	io.WriteString(mac, req.Header.Get("Authorization"))
	mac.Write([]byte{0})
	io.WriteString(mac, req.Header.Get("Accept"))
	return hex.EncodeToString(mac.Sum(nil)) + " " + req.URL.String()
}

func (c *etagCache) get(key string) *etagEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return nil
	}
	c.order.MoveToFront(el)
	return el.Value.(*etagEntry)
}

func (c *etagCache) put(e *etagEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[e.key]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.entries[e.key] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.entries, last.Value.(*etagEntry).key)
	}
}

// Len reports the number of cached responses.
func (c *etagCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

type etagTransport struct {
	cache *etagCache
	next  http.RoundTripper
}

func (t etagTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || req.Header.Get("If-None-Match") != "" {
		return t.next.RoundTrip(req)
	}
	key := t.cache.keyFor(req)
	cached := t.cache.get(key)
	if cached != nil {
		req = req.Clone(req.Context())
		req.Header.Set("If-None-Match", cached.etag)
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && cached != nil:
		resp.Body.Close()
		return cached.response(req, resp.Header), nil
	case resp.StatusCode == http.StatusOK && resp.Header.Get("ETag") != "":
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		t.cache.put(&etagEntry{key: key, etag: resp.Header.Get("ETag"), header: resp.Header.Clone(), body: body})
		resp.Body = io.NopCloser(bytes.NewReader(body))
		return resp, nil
	}
	return resp, nil
}

// response rebuilds the cached 200, with the fresh rate-limit headers of
// the 304 so that callers see the current budget.
func (e *etagEntry) response(req *http.Request, fresh http.Header) *http.Response {
	h := e.header.Clone()
	for k, v := range fresh {
		if strings.HasPrefix(strings.ToLower(k), "x-ratelimit-") {
			h[k] = v
		}
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(e.body)),
		ContentLength: int64(len(e.body)),
		Request:       req,
	}
}
