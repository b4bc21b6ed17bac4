package step

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/policy"
	"github.com/prloop/gh-prloop/core/schema"
	"github.com/prloop/gh-prloop/planner"
)

// AcceptedRisks are the sandbox guarantees the approved risk record
// accepts as missing. Under the safe isolation there is none and no
// record; under explicit-risk-acceptance the canonical record must hash
// to risk_acceptance_sha256.
func AcceptedRisks(b schema.Boundary, record string) ([]string, error) {
	if b.Isolation != policy.IsolationRisk {
		if record != "" {
			return nil, errors.New("a risk record was given for a plan under the safe isolation")
		}
		return nil, nil
	}
	if b.RiskAcceptanceSHA256 == nil || record == "" {
		return nil, errors.New("the plan accepts risks but its risk record is missing; nothing more is done")
	}
	if canon.Hash([]byte(record)) != *b.RiskAcceptanceSHA256 {
		return nil, errors.New("the risk record does not hash to the approved risk_acceptance_sha256; nothing more is done")
	}
	var r planner.RiskRecord
	if err := json.Unmarshal([]byte(record), &r); err != nil {
		return nil, fmt.Errorf("risk record: %w", err)
	}
	return r.MissingIsolation, nil
}

// CheckTransport verifies that url is the push URL the boundary binds.
func CheckTransport(b schema.Boundary, url string) error {
	if h, _ := canon.HashValue(map[string]any{"url": url}); url == "" || h != b.Git.TransportURLSHA256 {
		return errors.New("the push URL does not hash to the approved transport_url_sha256; nothing is done")
	}
	return nil
}
