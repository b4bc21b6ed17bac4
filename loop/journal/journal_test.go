package journal

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/statestore"
)

const (
	hashA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	hashB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	runID = "0123456789abcdef0123456789abcdef"
)

var ops = []string{"fetch-base", "commit", "push"}

func fixedNow() time.Time { return time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC) }

func locked(t *testing.T) *statestore.Run {
	t.Helper()
	r, err := statestore.OpenPlan(t.TempDir(), runID)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := r.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unlock)
	return r
}

func mustNew(t *testing.T, s Store, hash string) *Journal {
	t.Helper()
	j, err := New(s, "initial", hash, ops, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestReserveThenReceipt(t *testing.T) {
	r := locked(t)
	j := mustNew(t, r, hashA)
	if _, err := j.Reserve(1, nil); err == nil {
		t.Fatal("reserving commit before fetch-base has a receipt must be refused")
	}
	if _, err := j.Reserve(0, map[string]string{"base_sha": "x"}); err != nil {
		t.Fatal(err)
	}
	// The record is canonical JSON with the reservation and no receipt.
	data, err := r.Read("initial-00-fetch-base.json")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"index":0,"intent":{"base_sha":"x"},"op":"fetch-base","phase":"initial","plan_hash":"` + hashA + `","receipt":null,"receipted_at":null,"reserved_at":"2026-03-02T10:00:00Z","version":1}`
	if string(data) != want {
		t.Fatalf("record\n%s\nwant\n%s", data, want)
	}
	// A second reservation with the same intent is the same record (a
	// resumed run); a different intent is refused.
	if _, err := j.Reserve(0, map[string]string{"base_sha": "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Reserve(0, map[string]string{"base_sha": "y"}); err == nil {
		t.Fatal("a different intent must be refused")
	}
	if _, err := j.Reserve(1, nil); err == nil {
		t.Fatal("commit reserved while fetch-base has no receipt")
	}
	if _, err := j.Complete(0, map[string]string{"base_sha": "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Complete(0, map[string]string{"base_sha": "other"}); err == nil {
		t.Fatal("a second, different receipt must be refused")
	}
	if _, err := j.Reserve(0, map[string]string{"base_sha": "x"}); err == nil {
		t.Fatal("a receipted operation must not be reserved again")
	}
	if _, err := j.Complete(2, nil); err == nil {
		t.Fatal("a receipt without a reservation must be refused")
	}
	entries, err := j.Load()
	if err != nil {
		t.Fatal(err)
	}
	if !entries[0].Done() || entries[1] != nil || entries[2] != nil {
		t.Fatalf("entries %+v", entries)
	}
}

func TestWritesNeedTheRunLock(t *testing.T) {
	r, err := statestore.OpenPlan(t.TempDir(), runID)
	if err != nil {
		t.Fatal(err)
	}
	j := mustNew(t, r, hashA)
	if _, err := j.Reserve(0, nil); !errors.Is(err, statestore.ErrNotLocked) {
		t.Fatalf("reserve without the lock: %v", err)
	}
}

func TestLoadFailsClosed(t *testing.T) {
	good := `{"index":0,"intent":{},"op":"fetch-base","phase":"initial","plan_hash":"` + hashA + `","receipt":null,"receipted_at":null,"reserved_at":"2026-03-02T10:00:00Z","version":1}`
	cases := map[string]struct {
		name, data, want string
	}{
		"not canonical":       {"initial-00-fetch-base.json", strings.Replace(good, `"index":0,`, `"index": 0,`, 1), "canonical"},
		"unknown field":       {"initial-00-fetch-base.json", strings.Replace(good, `"index":0,`, `"extra":1,"index":0,`, 1), "fields"},
		"missing field":       {"initial-00-fetch-base.json", strings.Replace(good, `"phase":"initial",`, ``, 1), "fields"},
		"another plan":        {"initial-00-fetch-base.json", strings.Replace(good, hashA, hashB, 1), "not the approved plan"},
		"wrong op":            {"initial-00-fetch-base.json", strings.Replace(good, `"op":"fetch-base"`, `"op":"push"`, 1), "op is"},
		"wrong index":         {"initial-00-fetch-base.json", strings.Replace(good, `"index":0`, `"index":1`, 1), "index is"},
		"receipt w/o time":    {"initial-00-fetch-base.json", strings.Replace(good, `"receipt":null`, `"receipt":{}`, 1), "together"},
		"bad time":            {"initial-00-fetch-base.json", strings.Replace(good, `2026-03-02T10:00:00Z`, `yesterday`, 1), "reserved_at"},
		"version":             {"initial-00-fetch-base.json", strings.Replace(good, `"version":1`, `"version":2`, 1), "version"},
		"reserved past a gap": {"initial-01-commit.json", strings.NewReplacer(`"index":0`, `"index":1`, `"op":"fetch-base"`, `"op":"commit"`).Replace(good), "before it has no receipt"},
		"torn":                {"initial-00-fetch-base.json", good[:40], ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			r := locked(t)
			if err := r.WriteAtomic(c.name, []byte(c.data)); err != nil {
				t.Fatal(err)
			}
			_, err := mustNew(t, r, hashA).Load()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Load: %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestNewRefusesBadArguments(t *testing.T) {
	r := locked(t)
	for _, c := range []struct {
		phase, hash string
		ops         []string
	}{
		{"Initial", hashA, ops}, {"initial", "abc", ops}, {"initial", hashA, nil}, {"initial", hashA, []string{"../x"}},
	} {
		if _, err := New(r, c.phase, c.hash, c.ops, nil); err == nil {
			t.Errorf("New(%q, %q, %v) accepted", c.phase, c.hash, c.ops)
		}
	}
	if _, err := r.Read("initial-00-fetch-base.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("New must not write")
	}
}
