package manage

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/core/policy"
)

// ErrNoSuchAutomation: nothing has the key or id the human gave.
var ErrNoSuchAutomation = errors.New("no automation has this key or id")

// rePR is a pull request as gh names it: OWNER/REPO#NUMBER.
var rePR = regexp.MustCompile(`^([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)#([1-9][0-9]*)$`)

// Resolve finds the automation named by arg: its exact key, else its exact
// id, else — arg being OWNER/REPO#NUMBER, as the consoles print a loop —
// the one automation of that pull request. Ids are unique and never look
// like keys, so at most one of the first two matches; a pull request with
// more than one automation is ambiguous and names them.
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
	if m := rePR.FindStringSubmatch(arg); m != nil {
		// The key of each run of that pull request, less its run id.
		n, _ := strconv.ParseInt(m[3], 10, 64)
		prefix := policy.AutomationKey(strings.ToLower(m[1]+"/"+m[2]), n, "")
		var found []automations.Record
		for _, r := range recs {
			if strings.HasPrefix(r.Key, prefix) {
				found = append(found, r)
			}
		}
		switch len(found) {
		case 1:
			return found[0], nil
		case 0:
		default:
			keys := make([]string, len(found))
			for i, r := range found {
				keys[i] = r.Key
			}
			return automations.Record{}, fmt.Errorf("%s has %d automations; name one by its key: %s", arg, len(found), strings.Join(keys, ", "))
		}
	}
	return automations.Record{}, fmt.Errorf("%w: %q (see `gh-prloop automations list`)", ErrNoSuchAutomation, arg)
}
