package statestore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// DefaultLockTimeout is how long Lock waits for another gh-prloop.
const DefaultLockTimeout = 10 * time.Second

const lockRetry = 25 * time.Millisecond

// ErrBusy means another process (or another Run value in this one) holds
// the run's lock.
var ErrBusy = errors.New("another gh-prloop is acting on this run")

// ErrNotLocked is returned by a write attempted without the lock.
var ErrNotLocked = errors.New("statestore: write without holding the run's lock")

// Lock takes the run's exclusive lock, waiting up to LockTimeout (or until
// ctx ends). It is an flock(2) on the directory's lock file, so the kernel
// releases it when the holder dies: a crashed console never blocks the next
// wakeup. The returned unlock is safe to call more than once. Locking a Run
// that already holds the lock is an error, not a no-op, because two holders
// in one process would each believe they act alone.
func (r *Run) Lock(ctx context.Context) (unlock func(), err error) {
	r.mu.Lock()
	if r.held != nil {
		r.mu.Unlock()
		return nil, errors.New("statestore: this run's lock is already held here")
	}
	r.mu.Unlock()

	fl, err := acquire(ctx, filepath.Join(r.dir, lockFile), r.LockTimeout)
	if err != nil {
		return nil, err
	}

	r.mu.Lock()
	if r.held != nil { // a concurrent Lock on the same Run won the race
		r.mu.Unlock()
		_ = fl.Unlock()
		return nil, errors.New("statestore: this run's lock is already held here")
	}
	r.held = fl
	r.mu.Unlock()
	r.sweepTemps()

	released := false
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if released {
			return
		}
		released = true
		r.held = nil
		_ = fl.Unlock()
	}, nil
}

// acquire takes the flock on path, waiting up to timeout (DefaultLockTimeout
// when not positive) or until ctx ends.
func acquire(ctx context.Context, path string, timeout time.Duration) (*flock.Flock, error) {
	fl := flock.New(path, flock.SetPermissions(0o600))
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	// One attempt before any deadline can pass: a lock nobody holds is
	// taken even with a timeout shorter than this goroutine's scheduling
	// delay on a loaded machine (a "try once" caller saw a free lock as
	// busy).
	if err := ctx.Err(); err != nil {
		_ = fl.Close()
		return nil, err
	}
	ok, err := fl.TryLock()
	if !ok && err == nil {
		wctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		ok, err = fl.TryLockContext(wctx, lockRetry)
	}
	if !ok || err != nil {
		_ = fl.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err == nil || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("%w: its lock %s was still held after %s; try again when it has finished", ErrBusy, path, timeout)
		}
		return nil, fmt.Errorf("statestore: lock %s: %w", path, err)
	}
	return fl, nil
}
