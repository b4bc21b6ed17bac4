package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

// maxInput bounds what we read so a runaway pipe cannot exhaust memory.
const maxInput = 256 << 20

// readInput reads FILE, or stdin for "-" or no argument. Failures are usage/I-O
// errors (exit 2), distinct from an invalid document (exit 1).
func readInput(cmd *cobra.Command, args []string) ([]byte, error) {
	var r io.Reader
	size := int64(0) // a regular file's size, to read it into one buffer
	name := "-"
	if len(args) > 0 {
		name = args[0]
	}
	if name == "-" {
		r = cmd.InOrStdin()
		if readerIsTerminal(r) {
			// Without this a user who forgot the FILE sees a silent hang.
			fmt.Fprintln(cmd.ErrOrStderr(), "gh-prloop: reading the document from standard input; paste it, then press Ctrl-D (or pass a FILE)")
		}
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, exitWith(2, "cannot read %s: %v", name, unwrapPathError(err))
		}
		defer f.Close()
		r = f
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() <= maxInput {
			size = st.Size()
		}
	}
	// One buffer of the file's size: io.ReadAll's growing copies would
	// add up to twice a large document before it is even parsed.
	var buf bytes.Buffer
	buf.Grow(int(size) + bytes.MinRead)
	_, err := buf.ReadFrom(io.LimitReader(r, maxInput+1))
	data := buf.Bytes()
	if err != nil {
		return nil, exitWith(2, "cannot read %s: %v", name, err)
	}
	if len(data) > maxInput {
		return nil, exitWith(2, "%s is larger than %d MiB", name, maxInput>>20)
	}
	return data, nil
}

// readerIsTerminal reports whether r is a terminal; tests replace it.
var readerIsTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return fmt.Errorf("%s", pe.Err)
	}
	return err
}

// keyboard is the console's input: nil lets the console use the terminal even
// when stdin is a pipe (as gh does); only a test-supplied reader is passed on.
func keyboard(cmd *cobra.Command) io.Reader {
	if in := cmd.InOrStdin(); in != os.Stdin {
		return in
	}
	return nil
}
