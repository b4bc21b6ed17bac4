package ghsim

import (
	"net/http"
	"time"
)

// ClockPath serves the simulator's current time (GET only, no token):
// {"now":"2026-01-02T15:04:05Z"}. Under a time scale the simulator's
// timestamps run ahead of the wall clock, so a client that compares them
// with "now" (a request deadline) must read now here; like StatePath it
// costs no rate limit and counts no request.
const ClockPath = "/_sim/clock"

// ClockResponse is the body of GET ClockPath.
type ClockResponse struct {
	Now string `json:"now"`
}

func (s *Server) serveClock(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body := encodeJSON(ClockResponse{Now: s.now().Format(time.RFC3339)})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}
