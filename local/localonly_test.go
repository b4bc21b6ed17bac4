package local_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/prloop/gh-prloop/local"
)

// LocalOnly observes the same execution boundary and path records without
// a request to the remote, and leaves the remote's facts (base tip, refs
// digest) empty rather than guessed.
func TestLocalOnlyMakesNoRemoteRequest(t *testing.T) {
	e := newEnv(t, nil)
	full := e.observe()
	opts := e.opts()
	opts.LocalOnly = true
	n0 := e.srv.Requests()
	o, err := local.Observe(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if n := e.srv.Requests() - n0; n != 0 {
		t.Errorf("LocalOnly made %d requests to the remote", n)
	}
	if !reflect.DeepEqual(o.Boundary, full.Boundary) {
		t.Errorf("LocalOnly boundary %+v, the full observation's %+v", o.Boundary, full.Boundary)
	}
	if o.BaseSHA != "" || o.BaseBranch != "" || o.RemoteRefsSHA256 != "" {
		t.Errorf("LocalOnly reports remote facts: base %q @ %q, refs %q", o.BaseBranch, o.BaseSHA, o.RemoteRefsSHA256)
	}
	if o.TransportURL != full.TransportURL || o.Root != full.Root {
		t.Errorf("LocalOnly root %q, push URL %q; want %q, %q", o.Root, o.TransportURL, full.Root, full.TransportURL)
	}
	recs, err := o.Worktree.PathRecords([]string{"a.txt"})
	if err != nil || len(recs) != 1 {
		t.Fatalf("path records %v %v", recs, err)
	}
	want, _ := full.Worktree.PathRecords([]string{"a.txt"})
	if recs[0] != want[0] {
		t.Errorf("LocalOnly path record %+v, want %+v", recs[0], want[0])
	}
}
