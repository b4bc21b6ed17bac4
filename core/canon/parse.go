package canon

import (
	"strconv"
	"strings"
	"sync"
)

var scanners = sync.Pool{New: func() any { return new(scanner) }}

// getScanner and putScanner reuse tapes between calls; a tape for a large
// document is several times the document's size, too much to rebuild each
// time a big observation is hashed.
func getScanner() *scanner { return scanners.Get().(*scanner) }

// maxPooledNodes keeps a one-off huge document's tape (12 bytes a node)
// from being held by the pool.
const maxPooledNodes = 1 << 20

func putScanner(s *scanner) {
	if cap(s.nodes) > maxPooledNodes {
		return
	}
	s.reset(nil)
	s.refuseReplacement = false
	s.maxValues = 0
	s.sink = nil
	clear(s.members[:cap(s.members)])
	scanners.Put(s)
}

// MaxValues is Parse's budget: the most values (keys count) one document may
// hold. A Value costs several times its text (a 200 MB array of integers
// once took 8.5-10 GB), and no document prloop reads comes near a million
// values, so a larger one is refused with too-many-values before its Values
// are built; the tape scanned up to the refusal stays under 12 bytes a value.
// Canonicalize and HashDocument build no Values and have no such budget.
const MaxValues = 1 << 22

// parseBudget is MaxValues; a variable only so that tests can show the
// budget's edges on small documents.
var parseBudget = MaxValues

// Parse decodes one strict JSON document into a Value. It is stricter than
// both encoding/json and Python: anything two decoders could read
// differently is an error (see SyntaxError codes), never silently repaired.
// The result shares no memory with data.
func Parse(data []byte) (any, error) {
	s := getScanner()
	defer putScanner(s)
	s.maxValues = parseBudget
	if err := s.scan(data); err != nil {
		return nil, err
	}
	b := builder{s: s}
	v, _ := b.value(0)
	return v, nil
}

// arenaChunk is the size of the blocks string contents are copied into.
// One block serves many small strings, so Parse costs an allocation per
// block rather than per string, while a retained string pins at most a block.
const arenaChunk = 32 << 10

// builder turns a validated tape into Values.
type builder struct {
	s     *scanner
	arena strings.Builder
}

func (b *builder) str(p []byte) string {
	if len(p) == 0 {
		return ""
	}
	if len(p) > arenaChunk/8 {
		return string(p)
	}
	if b.arena.Cap()-b.arena.Len() < len(p) {
		b.arena = strings.Builder{}
		b.arena.Grow(arenaChunk)
	}
	start := b.arena.Len()
	b.arena.Write(p)
	// Earlier bytes of a strings.Builder are never rewritten, so slices
	// of an older String() stay valid and immutable.
	return b.arena.String()[start:]
}

// value builds the Value at node i and returns it with the index after it.
func (b *builder) value(i int) (any, int) {
	s := b.s
	nd := &s.nodes[i]
	switch nd.kind() {
	case kindNull:
		return nil, i + 1
	case kindFalse:
		return false, i + 1
	case kindTrue:
		return true, i + 1
	case kindNumber:
		return b.number(s.src[nd.a:nd.b]), i + 1
	case kindRaw:
		return b.str(s.src[nd.a:nd.b]), i + 1
	case kindDecoded:
		return b.str(s.dec[nd.a:nd.b]), i + 1
	case kindArray:
		out := make([]any, nd.n())
		j := i + 1
		for k := range out {
			out[k], j = b.value(j)
		}
		return out, int(nd.b)
	default: // kindObject
		m := make(map[string]any, nd.n())
		for _, key := range s.order[nd.a : int(nd.a)+nd.n()] {
			m[b.str(s.stringBytes(key))], _ = b.value(int(key) + 1)
		}
		return m, int(nd.b)
	}
}

// smallNumbers are boxed once: counts and small ids dominate real
// documents and boxing each would cost an allocation.
var smallNumbers = func() (t [1000]any) {
	for i := range t {
		t[i] = Number(strconv.Itoa(i))
	}
	return t
}()

func (b *builder) number(text []byte) any {
	switch {
	case len(text) == 1:
		return smallNumbers[text[0]-'0']
	case len(text) == 2 && text[0] == '-' && text[1] == '0':
		return smallNumbers[0]
	case len(text) == 2 && text[0] != '-':
		return smallNumbers[int(text[0]-'0')*10+int(text[1]-'0')]
	case len(text) == 3 && text[0] != '-':
		return smallNumbers[int(text[0]-'0')*100+int(text[1]-'0')*10+int(text[2]-'0')]
	}
	return Number(b.str(text))
}
