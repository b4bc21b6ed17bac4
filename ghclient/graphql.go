package ghclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cli/go-gh/v2/pkg/api"
)

// ErrIncomplete marks an observation that could not be read in full:
// GitHub returned errors, or data that a complete answer must contain was
// missing. ghclient never returns partial data with it.
var ErrIncomplete = errors.New("incomplete GitHub answer")

func incomplete(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrIncomplete, fmt.Sprintf(format, args...))
}

type rateLimitData struct {
	Cost      int `json:"cost"`
	Remaining int `json:"remaining"`
}

// query runs a GraphQL query (retryable) and decodes its data into out. A
// response with any entry in "errors" is an error even when data came too.
//
// GitHub reports a resolver that failed or timed out as an INTERNAL error
// inside a 200 (often one page of one connection, mid-pagination): the
// GraphQL form of a 5xx. A query changes nothing, so it is sent again with
// the same bounded backoff as a 5xx; any other GraphQL error is final.
func (c *Client) query(ctx context.Context, doc string, vars map[string]any, out any) error {
	ctx = asQuery(ctx)
	p := c.retry.p
	for attempt := 1; ; attempt++ {
		err := c.graphQL(ctx, doc, vars, out)
		if err == nil || !internalOnly(err) {
			return err
		}
		if attempt >= p.maxAttempts {
			return &GiveUpError{Attempts: attempt, Last: err.Error(), Err: err}
		}
		reason := fmt.Sprintf("GitHub failed to answer a query (%s); retry %d of %d", err, attempt+1, p.maxAttempts)
		if err := c.retry.wait(ctx, reason, c.retry.backoff(attempt)); err != nil {
			return err
		}
	}
}

// internalOnly reports a GraphQL answer whose every error is GitHub's own
// failure (type INTERNAL), which a repeat of the same query may not meet.
func internalOnly(err error) bool {
	var g *api.GraphQLError
	if !errors.As(err, &g) || len(g.Errors) == 0 {
		return false
	}
	for _, e := range g.Errors {
		if e.Type != "INTERNAL" {
			return false
		}
	}
	return true
}

// mutate runs a GraphQL mutation; it is never retried after it may have
// been delivered (see retry.go).
func (c *Client) mutate(ctx context.Context, doc string, vars map[string]any, out any) error {
	return c.graphQL(ctx, doc, vars, out)
}

func (c *Client) graphQL(ctx context.Context, doc string, vars map[string]any, out any) error {
	var data json.RawMessage
	if err := c.gql.DoWithContext(ctx, doc, vars, &data); err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 || bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return incomplete("GraphQL response has no data")
	}
	var rl struct {
		RateLimit *rateLimitData `json:"rateLimit"`
	}
	if err := json.Unmarshal(data, &rl); err != nil {
		return fmt.Errorf("decoding GraphQL data: %w", err)
	}
	if rl.RateLimit != nil {
		meterFrom(ctx).addPoints(rl.RateLimit.Cost, rl.RateLimit.Remaining)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("decoding GraphQL data: %w", err)
	}
	return nil
}
