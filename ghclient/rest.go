package ghclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/cli/go-gh/v2/pkg/api"
)

// maxRESTPages bounds one paginated REST read (100 items per page).
const maxRESTPages = 1000

// IsNotFound reports a 404 from GitHub (which GitHub also uses for "no
// access", so it proves nothing about existence).
func IsNotFound(err error) bool {
	var h *api.HTTPError
	return errors.As(err, &h) && h.StatusCode == http.StatusNotFound
}

// get GETs path, relative to the REST base URL, and returns the response
// headers and body.
func (c *Client) get(ctx context.Context, path string) (http.Header, []byte, error) {
	resp, err := c.rest.RequestWithContext(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	return resp.Header, body, nil
}

func (c *Client) getJSON(ctx context.Context, path string, out any) error {
	_, body, err := c.get(ctx, path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("decoding %s: %w", pathOnly(path), err)
	}
	return nil
}

// getPages reads path and every page its Link header calls next, handing
// each body to decode. A failed page fails the whole read.
func (c *Client) getPages(ctx context.Context, path string, decode func([]byte) error) error {
	seen := map[string]bool{}
	for n := 0; path != ""; n++ {
		if n >= maxRESTPages || seen[path] {
			return incomplete("%s: pagination does not end", pathOnly(path))
		}
		seen[path] = true
		h, body, err := c.get(ctx, path)
		if err != nil {
			return err
		}
		if err := decode(body); err != nil {
			return fmt.Errorf("decoding %s: %w", pathOnly(path), err)
		}
		if path, err = c.nextPath(h.Get("Link")); err != nil {
			return err
		}
	}
	return nil
}

// nextPath turns the rel="next" URL of a Link header into a path relative
// to our own REST base. Only its path and query are used, so a link can
// never send the token to another host.
func (c *Client) nextPath(link string) (string, error) {
	next := linkNext(link)
	if next == "" {
		return "", nil
	}
	u, err := url.Parse(next)
	if err != nil {
		return "", incomplete("bad next link: %v", err)
	}
	p := u.EscapedPath()
	if !strings.HasPrefix(p, c.prefix) {
		return "", incomplete("next link %q is outside the API", u.Path)
	}
	rel := strings.TrimPrefix(p, c.prefix)
	if u.RawQuery != "" {
		rel += "?" + u.RawQuery
	}
	return rel, nil
}

// linkNext extracts the rel="next" target of an RFC 8288 Link header.
func linkNext(h string) string {
	for _, part := range strings.Split(h, ",") {
		segs := strings.Split(part, ";")
		target := strings.TrimSpace(segs[0])
		if !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
			continue
		}
		for _, param := range segs[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(param), "=")
			if strings.EqualFold(k, "rel") {
				for _, r := range strings.Fields(strings.Trim(v, `"`)) {
					if r == "next" {
						return target[1 : len(target)-1]
					}
				}
			}
		}
	}
	return ""
}

// send issues a REST write with a JSON body and decodes the JSON answer.
func (c *Client) send(ctx context.Context, method, path string, in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	resp, err := c.rest.RequestWithContext(ctx, method, path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return &DeliveryUnknownError{Method: method, URL: pathOnly(path), Status: resp.StatusCode, Err: err}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("decoding answer to %s %s: %w", method, pathOnly(path), err)
	}
	return nil
}

func pathOnly(p string) string {
	path, _, _ := strings.Cut(p, "?")
	return path
}
