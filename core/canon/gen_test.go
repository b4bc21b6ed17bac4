package canon

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Shared test-document generators: random Value trees that lean on every
// rule where Go and Python could disagree, and a deliberately non-canonical
// serializer so parity tests exercise the parser as well as the encoder.

// trickyRunes are the code points where escaping or ordering rules bite.
var trickyRunes = func() []rune {
	rs := []rune{'<', '>', '&', '"', '\\', '/', '\'', 0x7f, 0x80, 0xa0, 0xe9, 0xff,
		0x2028, 0x2029, 0xfeff, 0xfffd, 0xfffe, 0xffff, 0xe000, 0xd7ff,
		0x1f600, 0x10000, 0x10ffff, 0x1d11e, 0x4e2d, 0x0627, 0x05d0, 0x200b}
	for c := rune(0); c < 0x20; c++ {
		rs = append(rs, c)
	}
	return rs
}()

type docGen struct {
	r *rand.Rand
}

func newDocGen(seed uint64) *docGen {
	return &docGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (g *docGen) rune() rune {
	switch n := g.r.IntN(10); {
	case n < 5:
		return rune(0x20 + g.r.IntN(0x5f)) // printable ASCII
	case n < 8:
		return trickyRunes[g.r.IntN(len(trickyRunes))]
	default:
		for {
			c := rune(g.r.IntN(0x110000))
			if !utf16.IsSurrogate(c) {
				return c
			}
		}
	}
}

func (g *docGen) string(maxLen int) string {
	n := g.r.IntN(maxLen + 1)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(g.rune())
	}
	return b.String()
}

func (g *docGen) digits(n int) string {
	var b strings.Builder
	b.WriteByte(byte('1' + g.r.IntN(9)))
	for i := 1; i < n; i++ {
		b.WriteByte(byte('0' + g.r.IntN(10)))
	}
	return b.String()
}

// number returns a canonical Number or, now and then, a Go int kind, so
// Encode's native-int paths are compared against Python too.
func (g *docGen) number() any {
	switch g.r.IntN(9) {
	case 0:
		return Number("0")
	case 1:
		return Number(strconv.Itoa(g.r.IntN(1000)))
	case 2:
		return Number("-" + g.digits(1+g.r.IntN(30)))
	case 3:
		return Number(g.digits(19 + g.r.IntN(3))) // around 2^64
	case 4:
		return Number("18446744073709551616")
	case 5:
		return Number("-" + g.digits(100+g.r.IntN(900)))
	case 6:
		return int64(g.r.Uint64())
	case 7:
		return uint64(g.r.Uint64())
	default:
		return int32(g.r.Int32() - 1<<30)
	}
}

func (g *docGen) value(depth int) any {
	n := g.r.IntN(10)
	if depth >= 6 {
		n = 6 + g.r.IntN(4)
	}
	switch n {
	case 0, 1, 2:
		m := map[string]any{}
		for i, k := 0, g.r.IntN(6); i < k; i++ {
			m[g.string(4)] = g.value(depth + 1)
		}
		return m
	case 3, 4:
		a := make([]any, g.r.IntN(5))
		for i := range a {
			a[i] = g.value(depth + 1)
		}
		return a
	case 5:
		return []string{g.string(3), g.string(3)}
	case 6:
		return g.string(12)
	case 7:
		return g.number()
	case 8:
		return g.r.IntN(2) == 0
	default:
		return nil
	}
}

// noisy serializes v as valid but non-canonical JSON: random whitespace,
// shuffled keys, optional escapes for any character (surrogate pairs for
// astral ones), "-0" for zero.
func (g *docGen) noisy(b []byte, v any) []byte {
	b = g.space(b)
	switch x := v.(type) {
	case nil:
		b = append(b, "null"...)
	case bool:
		b = strconv.AppendBool(b, x)
	case string:
		b = g.noisyString(b, x)
	case Number:
		if x == "0" && g.r.IntN(2) == 0 {
			b = append(b, "-0"...)
		} else {
			b = append(b, x...)
		}
	case int64, uint64, int32:
		b = fmt.Append(b, x)
	case []string:
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(g.space(b), ',')
			}
			b = g.noisy(b, s)
		}
		b = append(g.space(b), ']')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(g.space(b), ',')
			}
			b = g.noisy(b, e)
		}
		b = append(g.space(b), ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		g.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(g.space(b), ',')
			}
			b = g.noisyString(g.space(b), k)
			b = append(g.space(b), ':')
			b = g.noisy(b, x[k])
		}
		b = append(g.space(b), '}')
	default:
		panic(fmt.Sprintf("noisy: unexpected %T", v))
	}
	return g.space(b)
}

func (g *docGen) space(b []byte) []byte {
	for g.r.IntN(4) == 0 {
		b = append(b, " \t\r\n"[g.r.IntN(4)])
	}
	return b
}

func (g *docGen) noisyString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, c := range s {
		escape := g.r.IntN(3) == 0
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', byte(c))
		case c == '/' && escape:
			b = append(b, '\\', '/')
		case c < 0x20 || escape:
			if short := shortEscape(c); short != 0 && g.r.IntN(2) == 0 {
				b = append(b, '\\', short)
				continue
			}
			if c > 0xffff {
				hi, lo := utf16.EncodeRune(c)
				b = g.hexEscape(g.hexEscape(b, hi), lo)
			} else {
				b = g.hexEscape(b, c)
			}
		default:
			b = append(b, string(c)...)
		}
	}
	return append(b, '"')
}

func shortEscape(c rune) byte {
	switch c {
	case '\b':
		return 'b'
	case '\f':
		return 'f'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case '\t':
		return 't'
	}
	return 0
}

func (g *docGen) hexEscape(b []byte, c rune) []byte {
	s := fmt.Sprintf(`\u%04x`, c)
	if g.r.IntN(2) == 0 {
		s = `\u` + strings.ToUpper(s[2:])
	}
	return append(b, s...)
}
