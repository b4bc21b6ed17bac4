package schedule

import (
	"fmt"
	"strings"
	"time"
)

// shQuote quotes one word for sh, with "%" escaped: cron turns a bare one
// into a newline.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, "'", `'\''`), "%", `\%`) + "'"
}

// cronSchedule is the five time fields of every; a period that does not
// divide the hour (or the day) cannot be written as one line and is refused.
func cronSchedule(every time.Duration) (string, error) {
	switch {
	case every%time.Hour == 0 && 24%int(every/time.Hour) == 0:
		if every == 24*time.Hour {
			return "0 0 * * *", nil
		}
		return fmt.Sprintf("0 */%d * * *", every/time.Hour), nil
	case every%time.Minute == 0 && every < time.Hour && 60%int(every/time.Minute) == 0:
		if every == time.Minute {
			return "* * * * *", nil
		}
		return fmt.Sprintf("*/%d * * * *", every/time.Minute), nil
	}
	return "", fmt.Errorf("schedule: a period of %s cannot be written as a crontab line", every)
}

// CronMarker ends the crontab line, so that status can find it.
const CronMarker = "# gh-prloop schedule"

// cronLine is the crontab line to add by hand.
func cronLine(e Env, vars [][2]string, every time.Duration) (string, error) {
	when, err := cronSchedule(every)
	if err != nil {
		return "", err
	}
	parts := []string{when}
	for _, kv := range vars {
		parts = append(parts, kv[0]+"="+shQuote(kv[1]))
	}
	parts = append(parts, shQuote(e.Executable))
	parts = append(parts, WakeupArgs...)
	parts = append(parts, ">>"+shQuote(e.LogFile()), "2>&1", CronMarker)
	return strings.Join(parts, " "), nil
}
