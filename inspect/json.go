package inspect

import (
	"github.com/prloop/gh-prloop/core/evaluate"
	"github.com/prloop/gh-prloop/core/schema"
)

// ReportVersion is bumped whenever a field of Document changes meaning.
const ReportVersion = 1

// Document is what `gh-prloop report --json` prints. Its shape is documented
// in docs/report-json.md; the types here carry their own JSON names so a
// rename inside core can never silently change the output.
type Document struct {
	Version int             `json:"version"`
	State   schema.State    `json:"state"`
	Result  evaluate.Result `json:"result"`
	Live    Live            `json:"live"`
	Notices []Notice        `json:"notices"`
	Cost    Cost            `json:"cost"`
}

// Live is what Codex is seen doing right now (never a verdict).
type Live struct {
	Reviewing    bool   `json:"reviewing"`
	SummaryState string `json:"summary_state"`
	// SecurityState is the 🔒 Security Review row's state for the head
	// ("running", "completed", "failed" or ""); SecurityMarker says the
	// summary carries the codex-security-review:v1 marker. Neither ever
	// changes the verdict.
	SecurityState  string   `json:"security_state"`
	SecurityMarker bool     `json:"security_marker"`
	Reactions      []string `json:"reactions"`
}

// Notice is a Codex service notice posted instead of a review.
type Notice struct {
	Source string `json:"source"`
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Text   string `json:"text"`
}

// Cost is what the observation cost against GitHub's limits.
type Cost struct {
	Requests         int `json:"requests"`
	NotModified      int `json:"not_modified"`
	RESTCharged      int `json:"rest_charged"`
	GraphQLPoints    int `json:"graphql_points"`
	RateRemaining    int `json:"rest_remaining"`
	GraphQLRemaining int `json:"graphql_remaining"`
}

// JSON builds the stable --json document.
func (r *Result) JSON() Document {
	cl := r.Classified.Live
	live := Live{Reviewing: cl.Reviewing, SummaryState: cl.SummaryState, SecurityState: cl.SecurityState, SecurityMarker: cl.SecurityMarker, Reactions: cl.Reactions}
	if live.Reactions == nil {
		live.Reactions = []string{}
	}
	notices := make([]Notice, 0, len(r.Classified.Notices))
	for _, n := range r.Classified.Notices {
		notices = append(notices, Notice{Source: n.Source, ID: n.ID, Kind: n.Kind, Text: n.Text})
	}
	c := r.Cost
	return Document{
		Version: ReportVersion, State: r.State, Result: r.Verdict, Live: live, Notices: notices,
		Cost: Cost{Requests: c.Requests, NotModified: c.NotModified, RESTCharged: c.RESTCharged, GraphQLPoints: c.GraphQLPoints, RateRemaining: c.RateRemaining, GraphQLRemaining: c.GraphQLRemaining},
	}
}
