package schedule

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/policy"
)

// fakeMachine is the service manager side: which tools exist, what each
// command answers, and every command run.
type fakeMachine struct {
	tools map[string]bool
	fail  map[string]error  // by joined argv
	out   map[string]string // by joined argv
	ran   [][]string
}

func (m *fakeMachine) lookPath(name string) (string, error) {
	if m.tools[name] {
		return "/usr/bin/" + name, nil
	}
	return "", errors.New("executable file not found in $PATH")
}

func (m *fakeMachine) run(_ context.Context, argv []string) ([]byte, error) {
	m.ran = append(m.ran, argv)
	k := strings.Join(argv, " ")
	return []byte(m.out[k]), m.fail[k]
}

type bed struct {
	env  Env
	m    *fakeMachine
	dir  string
	vars map[string]string
}

func newBed(t *testing.T, goos string, tools ...string) *bed {
	t.Helper()
	dir := t.TempDir()
	b := &bed{dir: dir, m: &fakeMachine{tools: map[string]bool{}, fail: map[string]error{}, out: map[string]string{}}}
	for _, tool := range tools {
		b.m.tools[tool] = true
	}
	b.vars = map[string]string{
		"PATH":            "/usr/local/bin:/usr/bin:/bin",
		"XDG_CONFIG_HOME": filepath.Join(dir, "config"),
		"GH_TOKEN":        "gho_secret",
		"GITHUB_TOKEN":    "ghp_secret",
	}
	b.env = Env{
		GOOS:       goos,
		Getenv:     func(k string) string { return b.vars[k] },
		Home:       filepath.Join(dir, "home"),
		UID:        501,
		Executable: "/opt/gh prloop/bin/gh-prloop",
		StateRoot:  filepath.Join(dir, "state"),
		RRule:      policy.HeartbeatRRule,
		LookPath:   b.m.lookPath,
		Run:        b.m.run,
	}
	return b
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEveryFromPolicy(t *testing.T) {
	if d, err := Every(policy.HeartbeatRRule); err != nil || d != 2*time.Minute {
		t.Fatalf("heartbeat: %v %v", d, err)
	}
	good := map[string]time.Duration{"FREQ=MINUTELY": time.Minute, "FREQ=HOURLY;INTERVAL=3": 3 * time.Hour, "INTERVAL=5;FREQ=MINUTELY": 5 * time.Minute}
	for r, want := range good {
		if d, err := Every(r); err != nil || d != want {
			t.Errorf("%s: %v %v", r, d, err)
		}
	}
	for _, r := range []string{"", "FREQ=DAILY", "FREQ=MINUTELY;INTERVAL=0", "FREQ=MINUTELY;INTERVAL=02", "FREQ=MINUTELY;BYDAY=MO", "FREQ=MINUTELY;FREQ=HOURLY", "INTERVAL=2", "FREQ=MINUTELY;INTERVAL=-1"} {
		if _, err := Every(r); err == nil {
			t.Errorf("%q accepted", r)
		}
	}
}

// The units, exactly: the wakeup every 2 minutes from the policy rule, the
// state root and the PATH of the installer, the log in the state root, and
// no token, ever.
func TestSystemdUnitsExact(t *testing.T) {
	b := newBed(t, "linux")
	p, err := Build(b.env)
	if err != nil {
		t.Fatal(err)
	}
	unitDir := filepath.Join(b.dir, "config", "systemd", "user")
	log := filepath.Join(b.dir, "state", "logs", "wakeup.log")
	wantService := "# Written by `gh-prloop schedule install`; `gh-prloop schedule remove` deletes it.\n" +
		"[Unit]\nDescription=gh-prloop: one wakeup of every ACTIVE loop\n\n" +
		"[Service]\nType=oneshot\n" +
		`ExecStart="/opt/gh prloop/bin/gh-prloop" "wakeup" "--all"` + "\n" +
		`Environment="GH_PRLOOP_STATE_DIR=` + filepath.Join(b.dir, "state") + `"` + "\n" +
		`Environment="PATH=/usr/local/bin:/usr/bin:/bin"` + "\n" +
		`Environment="XDG_CONFIG_HOME=` + filepath.Join(b.dir, "config") + `"` + "\n" +
		"StandardOutput=append:" + log + "\nStandardError=append:" + log + "\n"
	wantTimer := "# Written by `gh-prloop schedule install`; `gh-prloop schedule remove` deletes it.\n" +
		"[Unit]\nDescription=gh-prloop: wake the loops up (FREQ=MINUTELY;INTERVAL=2)\n\n" +
		"[Timer]\nOnActiveSec=2min\nOnUnitActiveSec=2min\nAccuracySec=1s\nUnit=gh-prloop-wakeup.service\n\n" +
		"[Install]\nWantedBy=timers.target\n"
	want := []File{{filepath.Join(unitDir, ServiceName), wantService}, {filepath.Join(unitDir, TimerName), wantTimer}}
	if p.Platform != Systemd || !reflect.DeepEqual(p.Files, want) {
		t.Fatalf("platform %s, files:\n%s\n---\n%s", p.Platform, p.Files[0].Content, p.Files[1].Content)
	}
	wantCron := "*/2 * * * * GH_PRLOOP_STATE_DIR='" + filepath.Join(b.dir, "state") + "' PATH='/usr/local/bin:/usr/bin:/bin' XDG_CONFIG_HOME='" +
		filepath.Join(b.dir, "config") + "' '/opt/gh prloop/bin/gh-prloop' wakeup --all >>'" + log + "' 2>&1 # gh-prloop schedule"
	if p.CronLine != wantCron {
		t.Fatalf("cron line:\n%s\n%s", p.CronLine, wantCron)
	}
	for _, f := range p.Files {
		if strings.Contains(f.Content, "secret") || strings.Contains(f.Content, "TOKEN") {
			t.Fatal("a token reached a unit file")
		}
	}
}

// The interval comes from the rule: another rule, other units.
func TestUnitsFollowTheRule(t *testing.T) {
	b := newBed(t, "linux")
	b.env.RRule = "FREQ=MINUTELY;INTERVAL=5"
	p, err := Build(b.env)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Files[1].Content, "OnActiveSec=5min\nOnUnitActiveSec=5min\n") || !strings.HasPrefix(p.CronLine, "*/5 * * * * ") {
		t.Fatalf("%s\n%s", p.Files[1].Content, p.CronLine)
	}
	b.env.RRule = "FREQ=MINUTELY;INTERVAL=7"
	if _, err := Build(b.env); err == nil || !strings.Contains(err.Error(), "crontab") {
		t.Fatalf("7 minutes has no crontab form: %v", err)
	}
}

func TestQuotingAndRefusals(t *testing.T) {
	b := newBed(t, "linux")
	b.env.Executable = `/home/a"b/100%/$HOME/gh-prloop`
	p, err := Build(b.env)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Files[0].Content, `ExecStart="/home/a\"b/100%%/$$HOME/gh-prloop" "wakeup" "--all"`) {
		t.Fatalf("systemd quoting:\n%s", p.Files[0].Content)
	}
	if !strings.Contains(p.CronLine, `'/home/a"b/100\%/$HOME/gh-prloop'`) {
		t.Fatalf("cron quoting: %s", p.CronLine)
	}
	b.env.Executable = "/opt/x\n[Service]\nExecStartPre=/bin/evil"
	if _, err := Build(b.env); err == nil {
		t.Fatal("a newline in the executable path must be refused")
	}
	b = newBed(t, "linux")
	b.env.StateRoot = "relative"
	if _, err := Build(b.env); err == nil {
		t.Fatal("a relative state root must be refused")
	}
	b = newBed(t, "linux")
	b.vars["PATH"] = "/bin\nExecStart=/bin/evil"
	if _, err := Build(b.env); err == nil {
		t.Fatal("a newline in PATH must be refused")
	}
}

// Without systemctl: the units are written, nothing is run, and the human
// is told what to run (and the crontab line as the other way).
func TestInstallWithoutSystemctl(t *testing.T) {
	b := newBed(t, "linux")
	res, err := Install(t.Context(), b.env)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.m.ran) != 0 {
		t.Fatalf("ran %v without systemctl", b.m.ran)
	}
	p, _ := Build(b.env)
	for _, f := range p.Files {
		if read(t, f.Path) != f.Content {
			t.Fatalf("%s differs", f.Path)
		}
		fi, _ := os.Stat(f.Path)
		if fi.Mode().Perm() != 0o644 {
			t.Fatalf("%s mode %v", f.Path, fi.Mode())
		}
	}
	want := []string{"systemctl --user daemon-reload && systemctl --user enable --now gh-prloop-wakeup.timer", "or, without systemd, add this line with `crontab -e`:", p.CronLine}
	if !reflect.DeepEqual(res.Manual, want) || len(res.Written) != 2 {
		t.Fatalf("manual %q written %v", res.Manual, res.Written)
	}
	if fi, err := os.Stat(filepath.Dir(p.LogFile)); err != nil || !fi.IsDir() {
		t.Fatalf("log directory: %v", err)
	}
}

func TestInstallWithUserManager(t *testing.T) {
	b := newBed(t, "linux", "systemctl")
	res, err := Install(t.Context(), b.env)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"systemctl", "--user", "show-environment"},
		{"systemctl", "--user", "daemon-reload"},
		{"systemctl", "--user", "enable", "--now", "gh-prloop-wakeup.timer"},
	}
	if !reflect.DeepEqual(b.m.ran, want) || len(res.Manual) != 0 {
		t.Fatalf("ran %v manual %v", b.m.ran, res.Manual)
	}
	// Idempotent: again, same files, same commands.
	b.m.ran = nil
	if _, err := Install(t.Context(), b.env); err != nil || !reflect.DeepEqual(b.m.ran, want) {
		t.Fatalf("second install: %v %v", b.m.ran, err)
	}
}

func TestInstallSystemctlWithoutUserManager(t *testing.T) {
	b := newBed(t, "linux", "systemctl")
	b.m.fail["systemctl --user show-environment"] = errors.New("exit status 1")
	res, err := Install(t.Context(), b.env)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.m.ran) != 1 || len(res.Manual) != 1 || !strings.Contains(res.Notes[0], "no systemd user manager") {
		t.Fatalf("ran %v manual %v notes %v", b.m.ran, res.Manual, res.Notes)
	}
}

func TestInstallEnableFailureIsReported(t *testing.T) {
	b := newBed(t, "linux", "systemctl")
	b.m.fail["systemctl --user enable --now gh-prloop-wakeup.timer"] = errors.New("exit status 1")
	b.m.out["systemctl --user enable --now gh-prloop-wakeup.timer"] = "Failed to enable unit: Unit file is masked.\n"
	if _, err := Install(t.Context(), b.env); err == nil || !strings.Contains(err.Error(), "masked") {
		t.Fatalf("got %v", err)
	}
}

func TestLaunchdPlistExact(t *testing.T) {
	b := newBed(t, "darwin", "launchctl")
	b.env.Executable = "/Users/me/bin/gh-prloop&co"
	res, err := Install(t.Context(), b.env)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(b.dir, "home", "Library", "LaunchAgents", "io.github.prloop.wakeup.plist")
	log := filepath.Join(b.dir, "state", "logs", "wakeup.log")
	want := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- Written by gh-prloop schedule install; gh-prloop schedule remove deletes it. -->
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>io.github.prloop.wakeup</string>
	<key>ProgramArguments</key>
	<array>
		<string>/Users/me/bin/gh-prloop&amp;co</string>
		<string>wakeup</string>
		<string>--all</string>
	</array>
	<key>EnvironmentVariables</key>
	<dict>
		<key>GH_PRLOOP_STATE_DIR</key>
		<string>` + filepath.Join(b.dir, "state") + `</string>
		<key>PATH</key>
		<string>/usr/local/bin:/usr/bin:/bin</string>
		<key>XDG_CONFIG_HOME</key>
		<string>` + filepath.Join(b.dir, "config") + `</string>
	</dict>
	<key>StartInterval</key>
	<integer>120</integer>
	<key>StandardOutPath</key>
	<string>` + log + `</string>
	<key>StandardErrorPath</key>
	<string>` + log + `</string>
</dict>
</plist>
`
	if got := read(t, path); got != want {
		t.Fatalf("plist:\n%s", got)
	}
	wantRan := [][]string{
		{"launchctl", "bootout", "gui/501/io.github.prloop.wakeup"},
		{"launchctl", "bootstrap", "gui/501", path},
	}
	if !reflect.DeepEqual(b.m.ran, wantRan) || !reflect.DeepEqual(res.Ran, wantRan) {
		t.Fatalf("ran %v", b.m.ran)
	}
}

func TestElsewhereOnlyTheCrontabLine(t *testing.T) {
	b := newBed(t, "freebsd", "crontab", "systemctl")
	res, err := Install(t.Context(), b.env)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := Build(b.env)
	if len(b.m.ran) != 0 || len(res.Written) != 0 || !reflect.DeepEqual(res.Manual, []string{p.CronLine}) {
		t.Fatalf("ran %v written %v manual %v", b.m.ran, res.Written, res.Manual)
	}
	st, err := GetStatus(t.Context(), b.env)
	if err != nil || st.Installed || st.CronLine != p.CronLine {
		t.Fatalf("status before: %+v %v", st, err)
	}
	b.m.out["crontab -l"] = "0 * * * * other\n" + p.CronLine + "\n"
	if st, _ := GetStatus(t.Context(), b.env); !st.Installed || !st.CronFound {
		t.Fatalf("status with the line: %+v", st)
	}
}

func TestStatusAndRemoveSystemd(t *testing.T) {
	b := newBed(t, "linux", "systemctl")
	st, err := GetStatus(t.Context(), b.env)
	if err != nil || st.Installed || st.LastRun != "" {
		t.Fatalf("before install: %+v %v", st, err)
	}
	if _, err := Install(t.Context(), b.env); err != nil {
		t.Fatal(err)
	}
	show := "systemctl --user show gh-prloop-wakeup.timer --property=ActiveState,UnitFileState,LastTriggerUSec,NextElapseUSecRealtime"
	b.m.out[show] = "ActiveState=active\nUnitFileState=enabled\nLastTriggerUSec=Sun 2026-03-01 09:02:00 UTC\nNextElapseUSecRealtime=Sun 2026-03-01 09:04:00 UTC\n"
	st, err = GetStatus(t.Context(), b.env)
	if err != nil || !st.Installed || !st.Current || st.Manager != "active (enabled)" ||
		st.LastRun != "Sun 2026-03-01 09:02:00 UTC" || st.LastFrom != "systemd timer" || st.NextRun != "Sun 2026-03-01 09:04:00 UTC" {
		t.Fatalf("installed: %+v %v", st, err)
	}
	// The binary moved: the installed unit is no longer what install writes.
	b.env.Executable = "/usr/local/bin/gh-prloop"
	if st, _ := GetStatus(t.Context(), b.env); !st.Installed || st.Current || st.Files[0].Current || !st.Files[1].Current {
		t.Fatalf("after a move: %+v", st)
	}

	b.m.ran = nil
	res, err := Remove(t.Context(), b.env)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"systemctl", "--user", "show-environment"},
		{"systemctl", "--user", "disable", "--now", "gh-prloop-wakeup.timer"},
		{"systemctl", "--user", "daemon-reload"},
	}
	if !reflect.DeepEqual(b.m.ran, want) || len(res.Written) != 2 {
		t.Fatalf("remove ran %v removed %v", b.m.ran, res.Written)
	}
	for _, f := range res.Written {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Fatalf("%s still there", f)
		}
	}
	b.m.ran = nil
	if res, err := Remove(t.Context(), b.env); err != nil || len(res.Written) != 0 || len(b.m.ran) != 1 {
		t.Fatalf("second remove: %v ran %v", err, b.m.ran)
	}
}

// Without a manager to ask, the last run is the log's last write.
func TestStatusLastRunFromLog(t *testing.T) {
	b := newBed(t, "linux")
	if _, err := Install(t.Context(), b.env); err != nil {
		t.Fatal(err)
	}
	p, _ := Build(b.env)
	if err := os.WriteFile(p.LogFile, []byte("wakeup\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 3, 1, 9, 2, 0, 0, time.UTC)
	if err := os.Chtimes(p.LogFile, when, when); err != nil {
		t.Fatal(err)
	}
	st, err := GetStatus(t.Context(), b.env)
	if err != nil || st.LastRun != "2026-03-01T09:02:00Z" || st.LastFrom != "the log's last write" || st.Manager != "" {
		t.Fatalf("%+v %v", st, err)
	}
}
