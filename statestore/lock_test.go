package statestore

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLockExcludesAnotherRunValue(t *testing.T) {
	root := t.TempDir()
	a, err := Open(root, "k")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(root, "k")
	if err != nil {
		t.Fatal(err)
	}
	b.LockTimeout = 150 * time.Millisecond
	unlockA, err := a.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.Lock(context.Background())
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "another gh-prloop is acting on this run") {
		t.Fatalf("second locker: %v", err)
	}
	if err := b.WriteAtomic("x.json", nil); !errors.Is(err, ErrNotLocked) {
		t.Fatalf("a refused locker must not write: %v", err)
	}
	unlockA()
	unlockB, err := b.Lock(context.Background())
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	unlockB()
}

// Goroutines each holding their own Run must never be inside the critical
// section together.
func TestLockMutualExclusion(t *testing.T) {
	root := t.TempDir()
	var inside, maxInside, entered atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := Open(root, "k")
			if err != nil {
				t.Error(err)
				return
			}
			for j := 0; j < 5; j++ {
				unlock, err := r.Lock(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				n := inside.Add(1)
				for {
					m := maxInside.Load()
					if n <= m || maxInside.CompareAndSwap(m, n) {
						break
					}
				}
				entered.Add(1)
				time.Sleep(time.Millisecond)
				inside.Add(-1)
				unlock()
			}
		}()
	}
	wg.Wait()
	if maxInside.Load() != 1 || entered.Load() != 30 {
		t.Fatalf("max holders at once %d (want 1), entries %d (want 30)", maxInside.Load(), entered.Load())
	}
}

func TestLockWaitsForRelease(t *testing.T) {
	root := t.TempDir()
	a, _ := Open(root, "k")
	b, _ := Open(root, "k")
	unlockA, err := a.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(100 * time.Millisecond)
		close(released)
		unlockA()
	}()
	unlockB, err := b.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlockB()
	select {
	case <-released:
	default:
		t.Fatal("second locker got the lock while the first held it")
	}
}

func TestLockHonoursContext(t *testing.T) {
	root := t.TempDir()
	a, _ := Open(root, "k")
	b, _ := Open(root, "k")
	unlockA, err := a.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlockA()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Lock(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if _, err := a.Lock(context.Background()); err == nil {
		t.Fatal("re-locking a held Run must be refused")
	}
}

const helperEnv = "STATESTORE_LOCK_HELPER_ROOT"

// TestLockHelperProcess is not a test: the process test re-executes the
// test binary into it to hold the lock from another process.
func TestLockHelperProcess(t *testing.T) {
	root := os.Getenv(helperEnv)
	if root == "" {
		t.Skip("helper process only")
	}
	r, err := Open(root, "k")
	if err != nil {
		os.Exit(3)
	}
	unlock, err := r.Lock(context.Background())
	if err != nil {
		os.Exit(4)
	}
	os.Stdout.WriteString("locked\n")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // hold until the parent says so
	unlock()
	os.Exit(0)
}

func TestLockExcludesAnotherProcess(t *testing.T) {
	root := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+root)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("helper: %q %v", line, err)
	}
	r, err := Open(root, "k")
	if err != nil {
		t.Fatal(err)
	}
	r.LockTimeout = 200 * time.Millisecond
	if _, err := r.Lock(context.Background()); !errors.Is(err, ErrBusy) {
		t.Fatalf("while another process holds it: %v", err)
	}
	stdin.Write([]byte("\n"))
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper exit: %v", err)
	}
	r.LockTimeout = 5 * time.Second
	unlock, err := r.Lock(context.Background())
	if err != nil {
		t.Fatalf("after the other process released: %v", err)
	}
	unlock()
}

// A holder that dies without unlocking must not block the next run: the
// kernel drops an flock with the process.
func TestLockReleasedWhenHolderDies(t *testing.T) {
	root := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+root)
	if _, err := cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "locked\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("helper: %q %v", line, err)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	r, _ := Open(root, "k")
	r.LockTimeout = 5 * time.Second
	unlock, err := r.Lock(context.Background())
	if err != nil {
		t.Fatalf("lock of a dead holder: %v", err)
	}
	unlock()
}

// Many first openers of one key race to bind the directory; all succeed
// and the key file is whole.
func TestConcurrentFirstOpen(t *testing.T) {
	root := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := Open(root, "automation/key")
			if err == nil {
				var unlock func()
				if unlock, err = r.Lock(context.Background()); err == nil {
					err = r.WriteAtomic("x.json", []byte("x"))
					unlock()
				}
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	r, err := Open(root, "automation/key")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Read("key"); string(got) != "automation/key" {
		t.Fatalf("key file %q", got)
	}
}

// A lock nobody holds is taken whatever the timeout: a "try once" caller
// (wakeup's LockWait 0) on a loaded machine saw a free lock as busy when the
// deadline passed before the first attempt.
func TestFreeLockIsTakenEvenWithAnExpiredWait(t *testing.T) {
	r, err := Open(t.TempDir(), "k")
	if err != nil {
		t.Fatal(err)
	}
	r.LockTimeout = time.Nanosecond
	unlock, err := r.Lock(context.Background())
	if err != nil {
		t.Fatalf("a free lock with a 1ns wait: %v", err)
	}
	unlock()
}
