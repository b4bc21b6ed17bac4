package manage

import (
	"errors"
	"fmt"

	"github.com/prloop/gh-prloop/automations"
)

// ErrNoSuchAutomation: nothing has the key or id the human gave.
var ErrNoSuchAutomation = errors.New("no automation has this key or id")

// Resolve finds the automation named by arg: its exact key, else its exact
// id. Ids are unique and never look like keys, so at most one matches.
func Resolve(recs []automations.Record, arg string) (automations.Record, error) {
	for _, r := range recs {
		if r.Key == arg {
			return r, nil
		}
	}
	for _, r := range recs {
		if r.ID == arg {
			return r, nil
		}
	}
	return automations.Record{}, fmt.Errorf("%w: %q (see `gh-prloop automations list`)", ErrNoSuchAutomation, arg)
}
