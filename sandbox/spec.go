package sandbox

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"
)

// The guarantees, in the words Capabilities.Missing and a risk acceptance
// record use. They are stable strings: a risk record hashes them.
const (
	GuaranteeNoNetwork      = "no network access (private network namespace)"
	GuaranteeWritesConfined = "writes confined to the checkout and a private temporary directory (Landlock)"
	GuaranteeMinimalEnv     = "minimal environment (fixed PATH, private HOME, no tokens)"
)

// Capabilities is what this machine can actually deliver, as Probe found.
type Capabilities struct {
	NoNetwork, WritesConfined, MinimalEnv bool
	// Missing names each guarantee that cannot be given (the Guarantee
	// constants), in a fixed order; empty when all hold.
	Missing []string
	// Reasons says why, one line per entry of Missing.
	Reasons []string
}

// All reports whether every guarantee holds.
func (c Capabilities) All() bool { return c.NoNetwork && c.WritesConfined && c.MinimalEnv }

func (c *Capabilities) miss(guarantee, reason string) {
	c.Missing = append(c.Missing, guarantee)
	c.Reasons = append(c.Reasons, guarantee+": "+reason)
}

// Spec is one command to run.
type Spec struct {
	// Argv is the command, exec'd directly (no shell); Argv[0] must be an
	// absolute path, the resolved executable the plan binds.
	Argv []string
	// Dir is the working directory (the checkout), absolute; writable.
	Dir string
	// Timeout bounds the run; the command and everything it started is
	// killed when it expires. Zero means DefaultTimeout.
	Timeout time.Duration
	// OutputLimit bounds Result.Output (the last OutputLimit bytes of
	// stdout and stderr interleaved are kept). Zero means DefaultOutputLimit.
	OutputLimit int64
	// Tail receives all output live; may be nil.
	Tail io.Writer
	// AllowWrites are extra writable directories besides Dir and the
	// private temporary directory (absolute).
	AllowWrites []string
	// AllowNetwork runs the command with the host's network.
	AllowNetwork bool
	// Env adds NAME=value pairs to the minimal environment, for what a
	// command cannot do without (e.g. GOCACHE in a directory of
	// AllowWrites, so `go test` need not rebuild the standard library on
	// every run). A name that could carry a credential (GH_*, GITHUB_*,
	// GIT_*, *TOKEN*, *SECRET*, *PASSWORD*, *KEY*, proxies) or one of
	// the minimal environment's own is refused.
	Env []string
	// AcceptMissing lists guarantees (Guarantee constants) a human
	// accepted as missing in the plan's risk acceptance record; Run then
	// runs without them. Any other missing guarantee is an error.
	AcceptMissing []string
}

// Result is what a finished run produced.
type Result struct {
	ExitCode  int // -1 when killed by a signal (e.g. on timeout)
	Output    []byte
	Truncated bool // Output lost its beginning to OutputLimit
	TimedOut  bool
	Elapsed   time.Duration
}

// Defaults for a zero Spec field.
const (
	DefaultTimeout     = 30 * time.Minute
	DefaultOutputLimit = 1 << 20
)

// ErrUnavailable is wrapped by Run's error when the isolation a Spec needs
// cannot be delivered on this machine.
var ErrUnavailable = errors.New("sandbox: isolation unavailable")

func (s *Spec) normalize() error {
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return errors.New("sandbox: Spec.Argv is empty")
	}
	if !filepath.IsAbs(s.Argv[0]) {
		return fmt.Errorf("sandbox: Spec.Argv[0] %q is not an absolute path", s.Argv[0])
	}
	if !filepath.IsAbs(s.Dir) {
		return fmt.Errorf("sandbox: Spec.Dir %q is not an absolute path", s.Dir)
	}
	for i, d := range s.AllowWrites {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("sandbox: Spec.AllowWrites[%d] %q is not an absolute path", i, d)
		}
	}
	for i, kv := range s.Env {
		if err := checkExtraEnv(kv); err != nil {
			return fmt.Errorf("sandbox: Spec.Env[%d]: %w", i, err)
		}
	}
	if s.Timeout < 0 || s.OutputLimit < 0 {
		return errors.New("sandbox: Spec.Timeout and Spec.OutputLimit must not be negative")
	}
	if s.Timeout == 0 {
		s.Timeout = DefaultTimeout
	}
	if s.OutputLimit == 0 {
		s.OutputLimit = DefaultOutputLimit
	}
	return nil
}
