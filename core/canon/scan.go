package canon

import (
	"bytes"
	"hash"
	"slices"
	"strconv"
	"unicode/utf8"
)

// MaxDepth is the deepest container nesting Parse and Encode accept:
// 64 nested arrays/objects are fine, 65 are rejected. It bounds recursion on
// untrusted input and matches the protocol's stated limit.
const MaxDepth = 64

// The scanner is the single place where every strictness rule lives. It
// validates a whole document in one pass and records it as a flat tape of
// nodes; Parse builds Values from the tape and Canonicalize writes canonical
// bytes straight from it, so both agree on what is accepted by construction.

type kind uint8

const (
	kindNull kind = iota
	kindFalse
	kindTrue
	kindNumber  // src[a:b] is the integer text
	kindRaw     // string without escapes: src[a:b] is both its value and its canonical body
	kindDecoded // string with escapes, decoded into dec[a:b]
	kindArray   // n element subtrees follow; b is the index after the subtree
	kindObject  // n members (key node, value subtree) follow; order[a:a+n] lists key nodes sorted; b as for arrays
)

// node is one tape entry, 12 bytes: the tape is the largest structure a
// scan builds (one node per value and key, so up to half the document's
// size in nodes), and its size decides the peak memory of hashing a large
// document. Offsets and indexes fit 32 bits because a document is at most
// maxDocument bytes and every node needs at least one of them.
type node struct {
	a, b uint32
	nk   uint32 // element count << kindBits | kind
}

const (
	kindBits = 3
	// maxElements is the most members or elements one container may hold
	// in the 29 bits nk leaves for the count.
	maxElements = 1<<(32-kindBits) - 1
)

func (nd *node) kind() kind { return kind(nd.nk & (1<<kindBits - 1)) }
func (nd *node) n() int     { return int(nd.nk >> kindBits) }

// pending is an object member awaiting its object's close, where keys are
// sorted once: that yields canonical order and finds duplicates together.
// The key is kept as offsets (a..b in src, or in dec when decoded), so a
// member costs 16 bytes and stays valid when dec grows.
type pending struct {
	node uint32 // key node; decodedKey marks a key held in dec
	a, b uint32
	off  uint32 // source offset of the key's opening quote
}

const decodedKey = 1 << 31

type scanner struct {
	// refuseReplacement rejects the escape \ufffd; see scanGo.
	refuseReplacement bool
	// maxValues, when positive, is the most nodes (values and keys) the
	// scan may record; Parse sets it (see MaxValues).
	maxValues int
	// sink, when set, receives emitted bytes as they fill (HashDocument).
	sink hash.Hash

	src     []byte
	pos     int
	nodes   []node
	order   []int32
	dec     []byte
	members []pending
}

func (s *scanner) reset(src []byte) {
	s.src = src
	s.pos = 0
	s.nodes = s.nodes[:0]
	s.order = s.order[:0]
	s.dec = s.dec[:0]
	s.members = s.members[:0]
}

// maxDocument keeps every node index within the int32 the tape stores
// (a node needs at least one source byte).
const maxDocument = 1<<31 - 1

// scan validates src and fills the tape; the root is node 0.
func (s *scanner) scan(src []byte) error {
	s.reset(src)
	if len(src) > maxDocument {
		return s.fail(0, CodeSyntax, "document larger than 2 GiB")
	}
	// One allocation for the tape of a typical document (a node per four
	// bytes or more) instead of a chain of growing copies, whose garbage
	// once made the peak several times the tape. Capacity never touched
	// costs address space, not memory.
	if need := len(src)/4 + 16; cap(s.nodes) < need {
		s.nodes = make([]node, 0, need)
	}

	s.skipSpace()
	if s.pos >= len(src) {
		return s.fail(len(src), CodeEmptyInput, "empty input")
	}
	if err := s.value(0); err != nil {
		return err
	}
	s.skipSpace()
	if s.pos < len(src) {
		return s.fail(s.pos, CodeTrailingData, "data after the document")
	}
	return nil
}

func (s *scanner) fail(off int, code, msg string) error {
	return &SyntaxError{Offset: int64(off), Code: code, Msg: msg}
}

// unexpected names the byte at off; a byte that does not start valid UTF-8
// is reported as such because that is the more useful diagnosis.
func (s *scanner) unexpected(off int, want string) error {
	if off >= len(s.src) {
		return s.fail(off, CodeSyntax, "unexpected end of input, expected "+want)
	}
	c := s.src[off]
	if c >= utf8.RuneSelf {
		r, size := utf8.DecodeRune(s.src[off:])
		if r == utf8.RuneError && size == 1 {
			return s.fail(off, CodeInvalidUTF8, "invalid UTF-8")
		}
		return s.fail(off, CodeSyntax, "unexpected "+strconv.QuoteRune(r)+", expected "+want)
	}
	return s.fail(off, CodeSyntax, "unexpected "+strconv.QuoteRune(rune(c))+", expected "+want)
}

func (s *scanner) skipSpace() {
	src := s.src
	i := s.pos
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	s.pos = i
}

func (s *scanner) push(k kind, a, b int) {
	s.nodes = append(s.nodes, node{nk: uint32(k), a: uint32(a), b: uint32(b)})
}

// overBudget reports whether the tape has outgrown maxValues; containers
// ask after each member, so a refused document never holds more than the
// budget plus one member's nodes.
func (s *scanner) overBudget() bool { return s.maxValues > 0 && len(s.nodes) > s.maxValues }

func (s *scanner) tooManyValues() error {
	return s.fail(s.pos, CodeTooManyValues, "document has more than "+strconv.Itoa(s.maxValues)+" values")
}

func (s *scanner) tooManyElements() error {
	return s.fail(s.pos, CodeTooManyValues, "container has more than "+strconv.Itoa(maxElements)+" members")
}

// value scans the value at s.pos; depth counts the containers around it.
func (s *scanner) value(depth int) error {
	src := s.src
	if s.pos >= len(src) {
		return s.unexpected(s.pos, "a value")
	}
	switch c := src[s.pos]; c {
	case '{':
		return s.object(depth + 1)
	case '[':
		return s.array(depth + 1)
	case '"':
		return s.string()
	case 't':
		return s.literal("true", kindTrue)
	case 'f':
		return s.literal("false", kindFalse)
	case 'n':
		return s.literal("null", kindNull)
	case 'N':
		return s.nonFinite(s.pos, "NaN")
	case 'I':
		return s.nonFinite(s.pos, "Infinity")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return s.number()
		}
		return s.unexpected(s.pos, "a value")
	}
}

func (s *scanner) literal(word string, k kind) error {
	if !hasPrefixAt(s.src, s.pos, word) {
		return s.fail(s.pos, CodeSyntax, "invalid literal, expected "+word)
	}
	s.push(k, 0, 0)
	s.pos += len(word)
	return nil
}

// nonFinite gives Python's NaN/Infinity extensions their own code because
// json.loads accepts them and a reader should know why we do not.
func (s *scanner) nonFinite(off int, word string) error {
	if hasPrefixAt(s.src, s.pos, word) {
		return s.fail(off, CodeNaNInfinity, word+" is not valid JSON")
	}
	return s.unexpected(s.pos, "a value")
}

func hasPrefixAt(src []byte, at int, word string) bool {
	return at+len(word) <= len(src) && string(src[at:at+len(word)]) == word
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number accepts only integers; a well-formed fraction or exponent gets
// not-integer so the cause is clear, anything malformed is a syntax error.
func (s *scanner) number() error {
	src := s.src
	start := s.pos
	i := start
	if src[i] == '-' {
		i++
		if i < len(src) && src[i] == 'I' {
			s.pos = i
			return s.nonFinite(start, "Infinity")
		}
	}
	if i >= len(src) {
		return s.unexpected(i, "a digit")
	}
	switch c := src[i]; {
	case c == '0':
		i++
		if i < len(src) && isDigit(src[i]) {
			return s.fail(start, CodeSyntax, "number has a leading zero")
		}
	case c >= '1' && c <= '9':
		i++
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	default:
		return s.unexpected(i, "a digit")
	}
	intEnd := i
	notInt := false
	if i < len(src) && src[i] == '.' {
		i++
		if i >= len(src) || !isDigit(src[i]) {
			return s.unexpected(i, "a digit after the decimal point")
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		notInt = true
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= len(src) || !isDigit(src[i]) {
			return s.unexpected(i, "a digit in the exponent")
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		notInt = true
	}
	if notInt {
		return s.fail(start, CodeNotInteger, "number has a fraction or exponent; only integers are allowed")
	}
	s.push(kindNumber, start, intEnd)
	s.pos = i
	return nil
}

func (s *scanner) tooDeep() error {
	return s.fail(s.pos, CodeTooDeep, "nesting deeper than "+strconv.Itoa(MaxDepth))
}

// separator consumes what follows a container member: a ',' (another member
// follows; true) or the container's closing byte (false).
func (s *scanner) separator(closing byte, want string) (bool, error) {
	s.skipSpace()
	if s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ',':
			s.pos++
			s.skipSpace()
			return true, nil
		case closing:
			s.pos++
			return false, nil
		}
	}
	return false, s.unexpected(s.pos, want)
}

func (s *scanner) array(depth int) error {
	if depth > MaxDepth {
		return s.tooDeep()
	}
	src := s.src
	idx := len(s.nodes)
	s.push(kindArray, 0, 0)
	s.pos++
	s.skipSpace()
	n := 0
	if s.pos < len(src) && src[s.pos] == ']' {
		s.pos++
	} else {
		for {
			if err := s.value(depth); err != nil {
				return err
			}
			n++
			if s.overBudget() {
				return s.tooManyValues()
			}
			if n > maxElements {
				return s.tooManyElements()
			}
			more, err := s.separator(']', "',' or ']'")
			if err != nil {
				return err
			}
			if !more {
				break
			}
		}
	}
	s.nodes[idx] = node{nk: uint32(n)<<kindBits | uint32(kindArray), b: uint32(len(s.nodes))}
	return nil
}

func (s *scanner) object(depth int) error {
	if depth > MaxDepth {
		return s.tooDeep()
	}
	src := s.src
	idx := len(s.nodes)
	s.push(kindObject, 0, 0)
	s.pos++
	s.skipSpace()
	if s.pos < len(src) && src[s.pos] == '}' {
		s.pos++
		s.nodes[idx].b = uint32(len(s.nodes))
		return nil
	}
	base := len(s.members)
	for {
		if s.pos >= len(src) || src[s.pos] != '"' {
			return s.unexpected(s.pos, "an object key")
		}
		off := s.pos
		keyNode := int32(len(s.nodes))
		if err := s.string(); err != nil {
			return err
		}
		s.skipSpace()
		if s.pos >= len(src) || src[s.pos] != ':' {
			return s.unexpected(s.pos, "':'")
		}
		s.pos++
		s.skipSpace()
		if err := s.value(depth); err != nil {
			return err
		}
		if len(s.members) == cap(s.members) {
			s.members = growTo(s.members, len(src)/16)
		}
		s.members = append(s.members, s.pendingKey(keyNode, off))
		if s.overBudget() {
			return s.tooManyValues()
		}
		if len(s.members)-base > maxElements {
			return s.tooManyElements()
		}
		more, err := s.separator('}', "',' or '}'")
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	ms := s.members[base:]
	s.sortPending(ms)
	if err := s.duplicate(ms); err != nil {
		return err
	}
	a := len(s.order)
	s.order = slices.Grow(s.order, len(ms))
	for i := range ms {
		s.order = append(s.order, int32(ms[i].node&^decodedKey))
	}
	s.nodes[idx] = node{nk: uint32(len(ms))<<kindBits | uint32(kindObject), a: uint32(a), b: uint32(len(s.nodes))}
	s.members = s.members[:base]
	return nil
}

// growTo makes room in a full member stack. Small ones grow as
// append would; past a few thousand entries the slice jumps once to bound (a
// wide object's worth for this document) instead of through a chain of
// copies whose garbage once doubled the peak of hashing a wide object.
func growTo(xs []pending, bound int) []pending {
	if len(xs) < 4096 || bound <= cap(xs) {
		return slices.Grow(xs, 1)
	}
	return slices.Grow(xs, bound-len(xs))
}

// pendingKey records the key node i, whose quote is at off, by offsets.
func (s *scanner) pendingKey(i int32, off int) pending {
	nd := &s.nodes[i]
	p := pending{node: uint32(i), a: nd.a, b: nd.b, off: uint32(off)}
	if nd.kind() == kindDecoded {
		p.node |= decodedKey
	}
	return p
}

func (s *scanner) key(p *pending) []byte {
	if p.node&decodedKey != 0 {
		return s.dec[p.a:p.b]
	}
	return s.src[p.a:p.b]
}

func (s *scanner) stringBytes(i int32) []byte {
	nd := &s.nodes[i]
	if nd.kind() == kindRaw {
		return s.src[nd.a:nd.b]
	}
	return s.dec[nd.a:nd.b]
}

// sortPending orders members by key bytes (UTF-8 byte order is code point
// order, Python's sort_keys order), ties by source offset so equal keys sit
// in document order.
func (s *scanner) sortPending(ms []pending) {
	if len(ms) <= 12 {
		for i := 1; i < len(ms); i++ {
			for j := i; j > 0 && s.pendingCompare(&ms[j], &ms[j-1]) < 0; j-- {
				ms[j], ms[j-1] = ms[j-1], ms[j]
			}
		}
		return
	}
	slices.SortFunc(ms, func(x, y pending) int { return s.pendingCompare(&x, &y) })
}

func (s *scanner) pendingCompare(x, y *pending) int {
	if c := bytes.Compare(s.key(x), s.key(y)); c != 0 {
		return c
	}
	return int(x.off) - int(y.off)
}

// duplicate reports the repeated key that appears first in the document,
// the one a reader scanning top to bottom would hit.
func (s *scanner) duplicate(sorted []pending) error {
	best := -1
	for i := 1; i < len(sorted); i++ {
		if bytes.Equal(s.key(&sorted[i]), s.key(&sorted[i-1])) && (best < 0 || sorted[i].off < sorted[best].off) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return s.fail(int(sorted[best].off), CodeDuplicateKey, "duplicate object key "+strconv.Quote(string(s.key(&sorted[best]))))
}
