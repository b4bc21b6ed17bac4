package docdiff

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/prloop/gh-prloop/core/canon"
	"github.com/prloop/gh-prloop/core/problems"
)

// Diff parses a and b with the strict canonical parser and returns every
// path whose value differs, sorted by path (segment by segment, array
// indices numerically). Equal documents give an empty, non-nil slice.
// Containers are compared member by member so that a change deep inside the
// snapshot is reported at its own path rather than as "the snapshot
// changed"; array elements are aligned first (see alignArrays) so that one
// inserted path does not report every later index as changed.
func Diff(a, b []byte) ([]Change, error) {
	va, err := canon.Parse(a)
	if err != nil {
		return nil, fmt.Errorf("docdiff: approved document: %w", err)
	}
	vb, err := canon.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("docdiff: rebuilt document: %w", err)
	}
	return Values(va, vb)
}

// Values is Diff over already parsed canon Values.
func Values(a, b any) ([]Change, error) {
	d := differ{out: []Change{}}
	if err := d.value("", a, b); err != nil {
		return nil, err
	}
	sort.SliceStable(d.out, func(i, j int) bool { return lessPath(d.out[i].Path, d.out[j].Path) })
	return d.out, nil
}

type differ struct {
	out []Change
}

func (d *differ) value(path string, a, b any) error {
	switch x := a.(type) {
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			return d.object(path, x, y)
		}
	case []any:
		if y, ok := b.([]any); ok {
			return d.array(path, x, y)
		}
	}
	ea, err := encode(a)
	if err != nil {
		return err
	}
	eb, err := encode(b)
	if err != nil {
		return err
	}
	if ea != eb {
		d.out = append(d.out, Change{Path: path, Kind: Changed, Old: clip(ea), New: clip(eb)})
	}
	return nil
}

func (d *differ) object(path string, a, b map[string]any) error {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := problems.Join(path, k)
		va, inA := a[k]
		vb, inB := b[k]
		var err error
		switch {
		case inA && inB:
			err = d.value(p, va, vb)
		case inA:
			err = d.removed(p, va)
		default:
			err = d.added(p, vb)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *differ) array(path string, a, b []any) error {
	ea, err := encodeAll(a)
	if err != nil {
		return err
	}
	eb, err := encodeAll(b)
	if err != nil {
		return err
	}
	for _, g := range alignArrays(ea, eb) {
		n := min(len(g.old), len(g.new))
		// A gap with elements on both sides is read as replacements, so a
		// path record whose digest changed is reported at that digest.
		for i := 0; i < n; i++ {
			if err := d.value(problems.Join(path, g.new[i]), a[g.old[i]], b[g.new[i]]); err != nil {
				return err
			}
		}
		for _, i := range g.old[n:] {
			d.out = append(d.out, Change{Path: problems.Join(path, i), Kind: Removed, Old: clip(ea[i])})
		}
		for _, j := range g.new[n:] {
			d.out = append(d.out, Change{Path: problems.Join(path, j), Kind: Added, New: clip(eb[j])})
		}
	}
	return nil
}

func (d *differ) added(path string, v any) error {
	e, err := encode(v)
	if err != nil {
		return err
	}
	d.out = append(d.out, Change{Path: path, Kind: Added, New: clip(e)})
	return nil
}

func (d *differ) removed(path string, v any) error {
	e, err := encode(v)
	if err != nil {
		return err
	}
	d.out = append(d.out, Change{Path: path, Kind: Removed, Old: clip(e)})
	return nil
}

func encode(v any) (string, error) {
	b, err := canon.Encode(v)
	if err != nil {
		return "", fmt.Errorf("docdiff: %w", err)
	}
	return string(b), nil
}

func encodeAll(vs []any) ([]string, error) {
	out := make([]string, len(vs))
	for i, v := range vs {
		e, err := encode(v)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// clip cuts s to MaxValueBytes on a rune boundary.
func clip(s string) string {
	if len(s) <= MaxValueBytes {
		return s
	}
	n := MaxValueBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + Clip
}

// lessPath orders JSON pointers segment by segment; two all-digit segments
// compare as numbers so that /paths/10 follows /paths/9.
func lessPath(a, b string) bool {
	sa, sb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(sa) && i < len(sb); i++ {
		if sa[i] == sb[i] {
			continue
		}
		na, errA := strconv.ParseUint(sa[i], 10, 64)
		nb, errB := strconv.ParseUint(sb[i], 10, 64)
		if errA == nil && errB == nil && na != nb {
			return na < nb
		}
		return sa[i] < sb[i]
	}
	return len(sa) < len(sb)
}
