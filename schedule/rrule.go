package schedule

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Every returns the period of a simple RFC 5545 rule, FREQ=MINUTELY or
// FREQ=HOURLY with an optional INTERVAL. Anything richer (BYDAY, COUNT, …)
// is refused rather than approximated: a timer that runs at other times
// than the rule says would make the loop's deadlines lie.
func Every(rrule string) (time.Duration, error) {
	var unit time.Duration
	interval := 1
	seen := map[string]bool{}
	for _, part := range strings.Split(rrule, ";") {
		name, value, ok := strings.Cut(part, "=")
		if !ok || seen[name] {
			return 0, fmt.Errorf("schedule: rule %q: malformed part %q", rrule, part)
		}
		seen[name] = true
		switch name {
		case "FREQ":
			switch value {
			case "MINUTELY":
				unit = time.Minute
			case "HOURLY":
				unit = time.Hour
			default:
				return 0, fmt.Errorf("schedule: rule %q: FREQ=%s is not supported (MINUTELY or HOURLY)", rrule, value)
			}
		case "INTERVAL":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > 1000 || value[0] == '0' {
				return 0, fmt.Errorf("schedule: rule %q: INTERVAL must be a positive integer", rrule)
			}
			interval = n
		default:
			return 0, fmt.Errorf("schedule: rule %q: %s is not supported", rrule, name)
		}
	}
	if unit == 0 {
		return 0, fmt.Errorf("schedule: rule %q has no FREQ", rrule)
	}
	return time.Duration(interval) * unit, nil
}
