package ghclient

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// etagServer answers GET /user with an ETag and honours If-None-Match.
type etagServer struct {
	mu        sync.Mutex
	body      string
	etag      string
	inm       []string
	notModded int
}

func (s *etagServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inm = append(s.inm, r.Header.Get("If-None-Match"))
	w.Header().Set("X-RateLimit-Resource", "core")
	w.Header().Set("X-RateLimit-Remaining", "4000")
	if r.Header.Get("If-None-Match") == s.etag {
		s.notModded++
		w.Header().Set("ETag", s.etag)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", s.etag)
	writeJSON(w, 200, s.body)
}

func TestConditionalGetServesCachedBodyOn304(t *testing.T) {
	s := &etagServer{body: userJSON, etag: `"v1"`}
	c, _ := newTestClient(t, s, nil)
	ctx, m := withMeter(context.Background())
	for range 2 {
		login, id, err := c.Viewer(ctx)
		if err != nil || login != "me" || id != 42 {
			t.Fatalf("Viewer = %q %d %v", login, id, err)
		}
	}
	if strings.Join(s.inm, ",") != `,"v1"` || s.notModded != 1 {
		t.Fatalf("If-None-Match sent: %q, 304s %d", s.inm, s.notModded)
	}
	if cost := m.snapshot(); cost.Requests != 2 || cost.NotModified != 1 || cost.RESTCharged != 1 || cost.RateRemaining != 4000 {
		t.Fatalf("cost %+v", cost)
	}
	// A changed resource is read afresh.
	s.mu.Lock()
	s.body, s.etag = `{"login":"renamed","id":42}`, `"v2"`
	s.mu.Unlock()
	if login, _, err := c.Viewer(context.Background()); err != nil || login != "renamed" {
		t.Fatalf("after change: %q %v", login, err)
	}
}

func TestETagCacheIsKeyedByIdentityWithoutStoringTheToken(t *testing.T) {
	s := &etagServer{body: userJSON, etag: `"v1"`}
	c, _ := newTestClient(t, s, nil)
	if _, _, err := c.Viewer(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Another identity on the same URL must not see this cache entry.
	req, _ := http.NewRequest(http.MethodGet, "https://api.github.com/user", nil)
	req.Header.Set("Authorization", "token someone-else")
	req.Header.Set("Accept", "application/vnd.github.merge-info-preview+json, application/vnd.github.nebula-preview")
	if c.etags.get(c.etags.keyFor(req)) != nil {
		t.Fatal("cache entry visible to another token")
	}
	c.etags.mu.Lock()
	defer c.etags.mu.Unlock()
	if len(c.etags.entries) != 1 {
		t.Fatalf("%d entries", len(c.etags.entries))
	}
	for k := range c.etags.entries {
		if strings.Contains(k, testToken) {
			t.Fatal("cache key contains the token")
		}
	}
}

func TestETagCacheEvictsLeastRecentlyUsed(t *testing.T) {
	cache := newETagCache(2)
	for _, k := range []string{"a", "b", "a", "c"} {
		if cache.get(k) == nil {
			cache.put(&etagEntry{key: k, etag: k})
		}
	}
	if cache.get("b") != nil || cache.get("a") == nil || cache.get("c") == nil || cache.Len() != 2 {
		t.Fatal("eviction did not drop the least recently used entry")
	}
}
