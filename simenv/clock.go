package simenv

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// clockPath is ghsim.ClockPath (not imported: the product's hook does not
// depend on the simulator's package).
const clockPath = "/_sim/clock"

// Clock is the product's source of "now": the wall clock in production,
// and the simulator's clock when the hook carries EnvClock. It fails
// closed with the same errors as FromEnv.
func Clock(getenv func(string) string) (func(context.Context) (time.Time, error), error) {
	h, err := FromEnv(getenv)
	if err != nil {
		return nil, err
	}
	if h == nil || h.ClockURL == "" {
		return func(context.Context) (time.Time, error) { return time.Now(), nil }, nil
	}
	return h.Now, nil
}

// Now reads the simulator's time from ClockURL (the wall clock when the
// hook has none).
func (h *Hook) Now(ctx context.Context) (time.Time, error) {
	if h.ClockURL == "" {
		return time.Now(), nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.ClockURL, nil)
	if err != nil {
		return time.Time{}, fmt.Errorf("simulator clock: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return time.Time{}, fmt.Errorf("simulator clock: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if err != nil {
		return time.Time{}, fmt.Errorf("simulator clock: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return time.Time{}, fmt.Errorf("simulator clock: HTTP %d", resp.StatusCode)
	}
	var v struct {
		Now string `json:"now"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return time.Time{}, fmt.Errorf("simulator clock: %w", err)
	}
	t, err := time.Parse(time.RFC3339, v.Now)
	if err != nil {
		return time.Time{}, fmt.Errorf("simulator clock: now: %w", err)
	}
	return t.UTC(), nil
}
