package ghclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
func (c *Client) query(ctx context.Context, doc string, vars map[string]any, out any) error {
	return c.graphQL(asQuery(ctx), doc, vars, out)
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
