package schedule

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Platforms.
const (
	Systemd = "systemd"
	Launchd = "launchd"
	Cron    = "cron"
)

// File is one file install writes.
type File struct {
	Path    string
	Content string
}

// Plan is what install would do on this machine.
type Plan struct {
	Platform string
	Every    time.Duration
	Files    []File
	LogFile  string
	CronLine string // the crontab line, the fallback everywhere
}

// Build derives the plan from env; nothing is written or run.
func Build(env Env) (Plan, error) {
	if err := env.check(); err != nil {
		return Plan{}, err
	}
	every, err := Every(env.RRule)
	if err != nil {
		return Plan{}, err
	}
	vars, err := env.vars()
	if err != nil {
		return Plan{}, err
	}
	line, err := cronLine(env, vars, every)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Every: every, LogFile: env.LogFile(), CronLine: line}
	switch env.GOOS {
	case "linux":
		p.Platform = Systemd
		dir := env.systemdUnitDir()
		if err := plainPath(dir); err != nil {
			return Plan{}, fmt.Errorf("schedule: XDG_CONFIG_HOME: %w", err)
		}
		p.Files = []File{
			{filepath.Join(dir, ServiceName), systemdService(env, vars)},
			{filepath.Join(dir, TimerName), systemdTimer(env.RRule, every)},
		}
	case "darwin":
		p.Platform = Launchd
		p.Files = []File{{env.launchdPlist(), launchdPlist(env, vars, every)}}
	default:
		p.Platform = Cron
	}
	return p, nil
}

// Result says what install or remove did, and what is left to the human.
type Result struct {
	Platform string
	Written  []string   // files written (install) or removed (remove)
	Ran      [][]string // commands run, in order
	Manual   []string   // commands (or a crontab line) the human must run
	Notes    []string
	LogFile  string
}

// Install writes the plan's files and activates them when the service
// manager is reachable; otherwise Result.Manual says what to run. Running
// it again rewrites the same files and re-activates: it is idempotent.
func Install(ctx context.Context, env Env) (Result, error) {
	p, err := Build(env)
	if err != nil {
		return Result{}, err
	}
	res := Result{Platform: p.Platform, LogFile: p.LogFile}
	if strings.HasPrefix(env.Executable, os.TempDir()+string(filepath.Separator)) {
		res.Notes = append(res.Notes, "the executable "+env.Executable+" is in a temporary directory (go run?); the timer will fail once it is gone: install a built gh-prloop")
	}
	if err := os.MkdirAll(filepath.Dir(p.LogFile), 0o700); err != nil {
		return res, fmt.Errorf("schedule: log directory: %w", err)
	}
	for _, f := range p.Files {
		if err := writeFile(f.Path, []byte(f.Content)); err != nil {
			return res, err
		}
		res.Written = append(res.Written, f.Path)
	}
	switch p.Platform {
	case Systemd:
		steps := [][]string{{"systemctl", "--user", "daemon-reload"}, {"systemctl", "--user", "enable", "--now", TimerName}}
		if why := systemdReachable(ctx, env); why != "" {
			res.Notes = append(res.Notes, why)
			res.Manual = append(res.Manual, joinArgv(steps[0])+" && "+joinArgv(steps[1]))
			if _, err := env.LookPath("systemctl"); err != nil {
				res.Manual = append(res.Manual, "or, without systemd, add this line with `crontab -e`:", p.CronLine)
			}
			return res, nil
		}
		return res, runAll(ctx, env, steps, &res)
	case Launchd:
		if _, err := env.LookPath("launchctl"); err != nil {
			res.Notes = append(res.Notes, "launchctl is not on PATH")
			res.Manual = append(res.Manual, "launchctl bootstrap "+launchdDomain(env)+" "+p.Files[0].Path)
			return res, nil
		}
		// bootout first so that a changed plist is reloaded; it fails
		// harmlessly when the agent was not loaded.
		_, _ = env.Run(ctx, []string{"launchctl", "bootout", launchdDomain(env) + "/" + LaunchdLabel})
		res.Ran = append(res.Ran, []string{"launchctl", "bootout", launchdDomain(env) + "/" + LaunchdLabel})
		return res, runAll(ctx, env, [][]string{{"launchctl", "bootstrap", launchdDomain(env), p.Files[0].Path}}, &res)
	default:
		res.Notes = append(res.Notes, "no systemd or launchd here: add this line with `crontab -e` (the crontab is not edited for you)")
		res.Manual = append(res.Manual, p.CronLine)
		return res, nil
	}
}

// Remove deactivates and deletes what Install wrote; removing what is not
// installed succeeds.
func Remove(ctx context.Context, env Env) (Result, error) {
	p, err := Build(env)
	if err != nil {
		return Result{}, err
	}
	res := Result{Platform: p.Platform, LogFile: p.LogFile}
	was := installed(p)
	switch p.Platform {
	case Systemd:
		if why := systemdReachable(ctx, env); why != "" {
			if was {
				res.Notes = append(res.Notes, why)
				res.Manual = append(res.Manual, "systemctl --user disable --now "+TimerName+" && systemctl --user daemon-reload")
			}
		} else if was {
			if err := runAll(ctx, env, [][]string{{"systemctl", "--user", "disable", "--now", TimerName}}, &res); err != nil {
				return res, err
			}
		}
	case Launchd:
		if _, err := env.LookPath("launchctl"); err == nil && was {
			_, _ = env.Run(ctx, []string{"launchctl", "bootout", launchdDomain(env) + "/" + LaunchdLabel})
			res.Ran = append(res.Ran, []string{"launchctl", "bootout", launchdDomain(env) + "/" + LaunchdLabel})
		}
	default:
		res.Manual = append(res.Manual, "remove this line with `crontab -e`:", p.CronLine)
	}
	for _, f := range p.Files {
		err := os.Remove(f.Path)
		switch {
		case err == nil:
			res.Written = append(res.Written, f.Path)
		case !errors.Is(err, fs.ErrNotExist):
			return res, fmt.Errorf("schedule: %w", err)
		}
	}
	if p.Platform == Systemd && len(res.Written) > 0 && len(res.Manual) == 0 {
		if err := runAll(ctx, env, [][]string{{"systemctl", "--user", "daemon-reload"}}, &res); err != nil {
			return res, err
		}
	}
	return res, nil
}

// Status is what is installed and when it last ran.
type Status struct {
	Platform  string
	Files     []FileStatus
	Installed bool   // every file present
	Current   bool   // and each as install would write it now
	Manager   string // the service manager's view ("active (enabled)", "loaded", …); "" when it cannot be asked
	LastRun   string // when the wakeup last ran, "" when unknown
	LastFrom  string // where LastRun comes from
	NextRun   string // systemd only
	LogFile   string
	CronLine  string // cron: the line to look for
	CronFound bool   // cron: `crontab -l` holds the line's marker
}

// FileStatus is one file of the plan.
type FileStatus struct {
	Path    string
	Present bool
	Current bool // same bytes as install would write now
}

// GetStatus inspects the files, asks the service manager when it can, and
// falls back to the log's modification time for the last run.
func GetStatus(ctx context.Context, env Env) (Status, error) {
	p, err := Build(env)
	if err != nil {
		return Status{}, err
	}
	st := Status{Platform: p.Platform, LogFile: p.LogFile, Installed: len(p.Files) > 0, Current: len(p.Files) > 0}
	for _, f := range p.Files {
		fsx := FileStatus{Path: f.Path}
		if b, err := os.ReadFile(f.Path); err == nil {
			fsx.Present, fsx.Current = true, bytes.Equal(b, []byte(f.Content))
		}
		st.Installed = st.Installed && fsx.Present
		st.Current = st.Current && fsx.Current
		st.Files = append(st.Files, fsx)
	}
	switch p.Platform {
	case Systemd:
		if systemdReachable(ctx, env) == "" {
			out, err := env.Run(ctx, []string{"systemctl", "--user", "show", TimerName, "--property=ActiveState,UnitFileState,LastTriggerUSec,NextElapseUSecRealtime"})
			if err == nil {
				props := parseProps(out)
				st.Manager = props["ActiveState"] + " (" + props["UnitFileState"] + ")"
				if v := props["LastTriggerUSec"]; v != "" && v != "n/a" {
					st.LastRun, st.LastFrom = v, "systemd timer"
				}
				if v := props["NextElapseUSecRealtime"]; v != "" && v != "n/a" {
					st.NextRun = v
				}
			}
		}
	case Launchd:
		if _, err := env.LookPath("launchctl"); err == nil {
			if _, err := env.Run(ctx, []string{"launchctl", "print", launchdDomain(env) + "/" + LaunchdLabel}); err == nil {
				st.Manager = "loaded"
			} else {
				st.Manager = "not loaded"
			}
		}
	default:
		st.CronLine = p.CronLine
		if _, err := env.LookPath("crontab"); err == nil {
			if out, err := env.Run(ctx, []string{"crontab", "-l"}); err == nil {
				st.CronFound = bytes.Contains(out, []byte(CronMarker))
			}
		}
		st.Installed, st.Current = st.CronFound, st.CronFound
	}
	if st.LastRun == "" {
		if fi, err := os.Stat(p.LogFile); err == nil {
			st.LastRun, st.LastFrom = fi.ModTime().UTC().Format(time.RFC3339), "the log's last write"
		}
	}
	return st, nil
}

// systemdReachable returns "" when systemctl exists and a user manager
// answers, else why not.
func systemdReachable(ctx context.Context, env Env) string {
	if _, err := env.LookPath("systemctl"); err != nil {
		return "systemctl is not on PATH"
	}
	if _, err := env.Run(ctx, []string{"systemctl", "--user", "show-environment"}); err != nil {
		return "no systemd user manager answers (" + firstLine(err.Error()) + ")"
	}
	return ""
}

func runAll(ctx context.Context, env Env, steps [][]string, res *Result) error {
	for _, argv := range steps {
		res.Ran = append(res.Ran, argv)
		if out, err := env.Run(ctx, argv); err != nil {
			return fmt.Errorf("schedule: %s: %v: %s", joinArgv(argv), err, firstLine(string(out)))
		}
	}
	return nil
}

func installed(p Plan) bool {
	for _, f := range p.Files {
		if _, err := os.Lstat(f.Path); err == nil {
			return true
		}
	}
	return false
}

func launchdDomain(env Env) string { return "gui/" + strconv.Itoa(env.UID) }

func parseProps(out []byte) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
			m[k] = v
		}
	}
	return m
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// writeFile replaces path atomically (temp file, sync, rename, sync of the
// directory): a unit half-written when the machine stops would break the
// timer silently.
func writeFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("schedule: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename there is nothing to remove
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("schedule: write %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}
