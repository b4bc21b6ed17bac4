package canon

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// intArray is "[n,n+1,...]" of count five-digit integers: six bytes a value,
// the densest realistic document for the tape.
func intArray(count int) []byte {
	var b strings.Builder
	b.Grow(count*6 + 2)
	b.WriteByte('[')
	for i := 0; i < count; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(10000 + i%90000))
	}
	b.WriteByte(']')
	return []byte(b.String())
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var se *SyntaxError
	if !errors.As(err, &se) || se.Code != code {
		t.Fatalf("error = %v, want code %s", err, code)
	}
}

// TestParseValueBudget (issue 12, break 4): Parse refuses a document of more
// than MaxValues values with too-many-values before building any Value.
// (HashDocument and Canonicalize, which build no Values, have no budget:
// TestScanBudgetBoundary.)
func TestParseValueBudget(t *testing.T) {
	over := []byte("[" + strings.Repeat("0,", MaxValues-1) + "0]")
	_, err := Parse(over)
	wantCode(t, err, CodeTooManyValues)
}

// TestScanBudgetBoundary: the budget counts every node, keys included;
// exactly the budget is accepted, one more is refused, and the scan stops
// there rather than reading the rest of the document.
func TestScanBudgetBoundary(t *testing.T) {
	scan := func(budget int, doc string) (*scanner, error) {
		s := new(scanner)
		s.maxValues = budget
		return s, s.scan([]byte(doc))
	}
	for _, tc := range []struct {
		doc   string
		nodes int
	}{
		{"[1,2,3]", 4},
		{`{"a":1,"b":[2]}`, 6},
		{`[{"a":"x"},[true,null]]`, 7},
	} {
		if _, err := scan(tc.nodes, tc.doc); err != nil {
			t.Fatalf("%s within a budget of %d: %v", tc.doc, tc.nodes, err)
		}
		_, err := scan(tc.nodes-1, tc.doc)
		wantCode(t, err, CodeTooManyValues)
	}
	// Parse applies the budget; HashDocument and Canonicalize build no
	// Values and have none.
	defer func(old int) { parseBudget = old }(parseBudget)
	parseBudget = 3
	_, err := Parse([]byte("[1,2,3]"))
	wantCode(t, err, CodeTooManyValues)
	if _, err := HashDocument([]byte("[1,2,3]")); err != nil {
		t.Fatalf("HashDocument: %v", err)
	}
	if _, err := Canonicalize([]byte("[1,2,3]")); err != nil {
		t.Fatalf("Canonicalize: %v", err)
	}
	parseBudget = 4
	if _, err := Parse([]byte("[1,2,3]")); err != nil {
		t.Fatalf("Parse at its budget: %v", err)
	}

	s, err := scan(10, "[[1,2,3],[4,5,6],[7,8,9],[10,11,12],[13]]")
	wantCode(t, err, CodeTooManyValues)
	if len(s.nodes) > 10+4 {
		t.Fatalf("tape has %d nodes after refusing at a budget of 10", len(s.nodes))
	}
}

// allocated is the bytes f allocates (runtime.MemStats.TotalAlloc, which
// counts garbage too: a growing tape's discarded copies are part of the peak).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHashDocumentMemory (issue 12, break 4): hashing a document allocates
// a small multiple of its size. The tape is 12 bytes a value, allocated
// once, and the canonical bytes stream into the digest; the 24-byte tape
// grown by copying plus a whole canonical copy came to about 20 times.
func TestHashDocumentMemory(t *testing.T) {
	doc := intArray(1 << 20) // about 6 MB
	var sum string
	n := allocated(func() {
		var err error
		if sum, err = HashDocument(doc); err != nil {
			t.Fatal(err)
		}
	})
	c, err := Canonicalize(doc)
	if err != nil || sum != Hash(c) {
		t.Fatalf("HashDocument differs from Hash(Canonicalize): %v", err)
	}
	if limit := uint64(4 * len(doc)); n > limit {
		t.Fatalf("hashing a %d-byte document allocated %d bytes (%.1f times), want at most 4 times",
			len(doc), n, float64(n)/float64(len(doc)))
	}
	t.Logf("HashDocument: %.2f bytes allocated per input byte", float64(n)/float64(len(doc)))
}

// TestParseMemory: building Values for a document within the budget stays a
// small multiple of its size too.
func TestParseMemory(t *testing.T) {
	doc := intArray(1 << 20)
	n := allocated(func() {
		if _, err := Parse(doc); err != nil {
			t.Fatal(err)
		}
	})
	if limit := uint64(12 * len(doc)); n > limit {
		t.Fatalf("parsing a %d-byte document allocated %d bytes (%.1f times), want at most 12 times",
			len(doc), n, float64(n)/float64(len(doc)))
	}
	t.Logf("Parse: %.2f bytes allocated per input byte", float64(n)/float64(len(doc)))
}
