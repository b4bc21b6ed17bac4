// Package schedule installs, inspects and removes the timer that runs
// `gh-prloop wakeup --all` on the policy heartbeat (PROTOCOL §3,
// heartbeat_rrule FREQ=MINUTELY;INTERVAL=2):
//
//   - Linux: a systemd user service and timer under
//     $XDG_CONFIG_HOME/systemd/user (default ~/.config/systemd/user), then
//     `systemctl --user daemon-reload` and `enable --now` when systemctl and
//     a user manager exist; otherwise the commands to run are printed.
//   - macOS: a launchd agent in ~/Library/LaunchAgents, loaded with
//     `launchctl bootstrap gui/<uid>` when launchctl exists.
//   - Anywhere else (or as an alternative where systemctl is missing): the
//     crontab line to add by hand; the crontab is never edited for you.
//
// The wakeup's output goes to <state root>/logs/wakeup.log. The interval is
// derived from the rule, never written down twice. Every external command
// goes through an injected runner, so tests see exactly what would run.
package schedule
