package schedule

import (
	"fmt"
	"strings"
	"time"
)

// systemdQuote quotes one word for a unit file: double quotes with C
// escapes, "%" doubled (a specifier otherwise) and, for command lines, "$"
// doubled (a variable otherwise).
func systemdQuote(s string, command bool) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "%", "%%")
	s = r.Replace(s)
	if command {
		s = strings.ReplaceAll(s, "$", "$$")
	}
	return `"` + s + `"`
}

// systemdService is the oneshot service one timer tick starts.
func systemdService(e Env, vars [][2]string) string {
	var b strings.Builder
	b.WriteString("# Written by `gh-prloop schedule install`; `gh-prloop schedule remove` deletes it.\n")
	b.WriteString("[Unit]\nDescription=gh-prloop: one wakeup of every ACTIVE loop\n\n[Service]\nType=oneshot\n")
	argv := []string{systemdQuote(e.Executable, true)}
	for _, a := range WakeupArgs {
		argv = append(argv, systemdQuote(a, true))
	}
	fmt.Fprintf(&b, "ExecStart=%s\n", strings.Join(argv, " "))
	for _, kv := range vars {
		fmt.Fprintf(&b, "Environment=%s\n", systemdQuote(kv[0]+"="+kv[1], false))
	}
	log := strings.ReplaceAll(e.LogFile(), "%", "%%")
	fmt.Fprintf(&b, "StandardOutput=append:%s\nStandardError=append:%s\n", log, log)
	return b.String()
}

// systemdTimer starts the service every period: first one period after the
// timer starts (at install, or at login), then one period after each start.
func systemdTimer(rrule string, every time.Duration) string {
	span := systemdSpan(every)
	return "# Written by `gh-prloop schedule install`; `gh-prloop schedule remove` deletes it.\n" +
		"[Unit]\nDescription=gh-prloop: wake the loops up (" + rrule + ")\n\n" +
		"[Timer]\nOnActiveSec=" + span + "\nOnUnitActiveSec=" + span + "\nAccuracySec=1s\nUnit=" + ServiceName + "\n\n" +
		"[Install]\nWantedBy=timers.target\n"
}
