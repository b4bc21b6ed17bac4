package sandbox

import (
	"fmt"
	"slices"
	"strings"
)

// check refuses a Spec whose needed guarantees this machine lacks, unless
// each missing one was accepted.
func check(c Capabilities, s Spec) error {
	var refused []string
	for i, g := range c.Missing {
		if g == GuaranteeNoNetwork && s.AllowNetwork {
			continue
		}
		if slices.Contains(s.AcceptMissing, g) {
			continue
		}
		refused = append(refused, c.Reasons[i])
	}
	if len(refused) > 0 {
		return fmt.Errorf("%w: %s", ErrUnavailable, strings.Join(refused, "; "))
	}
	return nil
}
