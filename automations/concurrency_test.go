package automations

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/core/policy"
)

// Goroutines creating the same key, each through its own Registry or
// sharing one, all get the same record, and the registry holds one.
func TestConcurrentCreateSameKeyGoroutines(t *testing.T) {
	_, root := openTemp(t)
	shared, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	key := testKey(testRunID)
	ids := make([]string, 12)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := shared
			if i%2 == 0 {
				var err error
				if r, err = Open(root); err != nil {
					t.Error(err)
					return
				}
			}
			rec, err := r.CreatePaused(t.Context(), key, fmt.Sprint("creator ", i), testRunID, policy.HeartbeatRRule, t0)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = rec.ID
		}()
	}
	wg.Wait()
	recs, err := shared.List(t.Context())
	if err != nil || len(recs) != 1 {
		t.Fatalf("want one record: %v %v", recs, err)
	}
	for i, id := range ids {
		if id != recs[0].ID {
			t.Fatalf("creator %d got id %q, the registry holds %q", i, id, recs[0].ID)
		}
	}
}

const (
	helperRootEnv = "AUTOMATIONS_HELPER_ROOT"
	helperKeyEnv  = "AUTOMATIONS_HELPER_RUN"
	helperKillEnv = "AUTOMATIONS_HELPER_KILL_AT"
)

// TestHelperProcess is not a test: the process tests re-execute the test
// binary into it. It creates the stub of the run in $AUTOMATIONS_HELPER_RUN
// and prints its id; with $AUTOMATIONS_HELPER_KILL_AT it SIGKILLs itself at
// that step of the registry write, a real crash.
func TestHelperProcess(t *testing.T) {
	root := os.Getenv(helperRootEnv)
	if root == "" {
		t.Skip("helper process only")
	}
	r, err := Open(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	r.SetLockTimeout(time.Minute)
	if step := os.Getenv(helperKillEnv); step != "" {
		r.file.SetWriteHook(func(s string) error {
			if s == step {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {} // the signal is on its way
			}
			return nil
		})
	}
	run := os.Getenv(helperKeyEnv)
	rec, err := r.CreatePaused(t.Context(), testKey(run), "helper", run, policy.HeartbeatRRule, t0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
	fmt.Println(rec.ID)
	os.Exit(0)
}

func helper(root, run, killAt string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperRootEnv+"="+root, helperKeyEnv+"="+run, helperKillEnv+"="+killAt)
	return cmd
}

func runID(i int) string { return fmt.Sprintf("%032x", i+1) }

// Processes racing on the registry: the ones creating the same key all
// print the one id recorded, and the ones creating other keys lose none of
// them (every write is a read-modify-write under the lock).
func TestConcurrentCreateProcesses(t *testing.T) {
	r, root := openTemp(t)
	const n = 6
	type out struct {
		id  string
		err error
	}
	results := make([]out, 2*n)
	var wg sync.WaitGroup
	for i := 0; i < 2*n; i++ {
		run := testRunID // the first n share one key
		if i >= n {
			run = runID(i)
		}
		cmd := helper(root, run, "")
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := cmd.Output()
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
				err = fmt.Errorf("%v: %s", err, ee.Stderr)
			}
			results[i] = out{strings.TrimSpace(string(b)), err}
		}()
	}
	wg.Wait()
	for i, res := range results {
		if res.err != nil {
			t.Fatalf("helper %d: %v", i, res.err)
		}
	}
	recs, err := r.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != n+1 {
		t.Fatalf("want %d records (one shared key and %d others), got %d", n+1, n, len(recs))
	}
	shared, ok, _ := r.Get(t.Context(), testKey(testRunID))
	if !ok {
		t.Fatal("the shared key is missing")
	}
	for i := 0; i < n; i++ {
		if results[i].id != shared.ID {
			t.Fatalf("process %d created %q, the registry holds %q", i, results[i].id, shared.ID)
		}
	}
}

// A process killed with SIGKILL at every step of a registry write leaves
// the old file or the new one, each valid; the next writer succeeds and
// removes the dead one's temporary file.
func TestKilledWriterNeverTearsTheRegistry(t *testing.T) {
	for _, step := range []string{"create", "write", "sync", "close", "rename", "syncdir"} {
		t.Run(step, func(t *testing.T) {
			r, root := openTemp(t)
			stubWithPrompt(t, r, testRunID, "p")
			old := fileBytes(t, r)

			cmd := helper(root, testRunID2, step)
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("helper was not killed: %v", err)
			}
			recs, err := r.List(t.Context())
			if err != nil {
				t.Fatalf("registry after a kill at %s: %v", step, err)
			}
			switch step {
			case "syncdir": // renamed: the new file
				if len(recs) != 2 {
					t.Fatalf("after the rename the new file must be in place: %d records", len(recs))
				}
			default:
				if got := fileBytes(t, r); string(got) != string(old) {
					t.Fatalf("killed before the rename, the file changed:\n%s", got)
				}
			}
			// The next writer is not blocked (the kernel dropped the lock)
			// and sweeps the temporary file.
			r.SetLockTimeout(5 * time.Second)
			if _, err := r.CreatePaused(t.Context(), testKey(testRunID2), "again", testRunID2, policy.HeartbeatRRule, t0); err != nil {
				t.Fatal(err)
			}
			entries, _ := os.ReadDir(root)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Fatalf("stray temporary %s", e.Name())
				}
			}
		})
	}
}

// A write that fails at any step (a full disk, an I/O error) reports it
// and leaves the old registry.
func TestFailedWriteKeepsOldRegistry(t *testing.T) {
	injected := errors.New("injected")
	for _, step := range []string{"create", "write", "sync", "close", "rename"} {
		t.Run(step, func(t *testing.T) {
			r, _ := openTemp(t)
			stubWithPrompt(t, r, testRunID, "p")
			old := fileBytes(t, r)
			r.file.SetWriteHook(func(s string) error {
				if s == step {
					return injected
				}
				return nil
			})
			_, err := r.CreatePaused(t.Context(), testKey(testRunID2), "n", testRunID2, policy.HeartbeatRRule, t0)
			if !errors.Is(err, injected) {
				t.Fatalf("got %v", err)
			}
			r.file.SetWriteHook(nil)
			if got := fileBytes(t, r); string(got) != string(old) {
				t.Fatal("the registry changed")
			}
			if _, err := r.List(t.Context()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
