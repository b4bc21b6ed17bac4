package simenv

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Without the hook the product's clock is the wall clock; the clock
// variable alone (no simulator) is refused, as is one that points anywhere
// but the API simulator's /_sim/clock.
func TestClockVariableIsHonouredOnlyWithTheSimulator(t *testing.T) {
	now, err := Clock(lookup(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := now(context.Background()); err != nil || time.Since(got) > time.Hour || time.Until(got) > time.Hour {
		t.Fatalf("production clock: %s %v", got, err)
	}
	if _, err := Clock(lookup(map[string]string{EnvClock: "http://127.0.0.1:4000/_sim/clock"})); err == nil || !strings.Contains(err.Error(), EnvClock) {
		t.Fatalf("clock alone: %v", err)
	}
	for _, bad := range []string{
		"http://127.0.0.1:4009/_sim/clock", // another port
		"http://127.0.0.1:4000/_sim/state",
		"https://127.0.0.1:4000/_sim/clock",
		"http://example.com/_sim/clock",
		"http://127.0.0.1:4000/_sim/clock?x=1",
	} {
		env := full(t)
		env[EnvClock] = bad
		if _, err := FromEnv(lookup(env)); err == nil || !strings.Contains(err.Error(), EnvClock) {
			t.Errorf("%s accepted: %v", bad, err)
		}
	}
	env := full(t)
	env[EnvClock] = env[EnvAPIURL] + "/_sim/clock"
	h, err := FromEnv(lookup(env))
	if err != nil || h.ClockURL != env[EnvClock] || h.Env()[EnvClock] != env[EnvClock] {
		t.Fatalf("valid clock: %+v %v", h, err)
	}
}

// With the variable, now is the simulator's time, however far it runs
// ahead of the wall clock; a broken answer is an error, never the wall
// clock in disguise.
func TestClockReadsTheSimulatorsTime(t *testing.T) {
	answer := `{"now":"2031-07-01T10:00:00Z"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != clockPath {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(answer))
	}))
	defer srv.Close()
	env := full(t)
	env[EnvAPIURL] = srv.URL
	env[EnvClock] = srv.URL + clockPath
	now, err := Clock(lookup(env))
	if err != nil {
		t.Fatal(err)
	}
	got, err := now(context.Background())
	if err != nil || !got.Equal(time.Date(2031, 7, 1, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("now = %s, %v", got, err)
	}
	answer = `{"now":"soon"}`
	if _, err := now(context.Background()); err == nil {
		t.Fatal("a malformed time was accepted")
	}
}
