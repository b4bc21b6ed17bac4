package canon

import (
	"testing"
	"unicode/utf8"
)

// validRuneLen must accept exactly what utf8.DecodeRune accepts. Every
// 1-4 byte prefix over the interesting byte values is compared.
func TestValidRuneLenMatchesUTF8(t *testing.T) {
	interesting := []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2,
		0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff}
	checked := 0
	for _, b0 := range interesting {
		if b0 < utf8.RuneSelf {
			continue
		}
		for _, b1 := range interesting {
			for _, b2 := range interesting {
				for _, b3 := range interesting {
					for n := 1; n <= 4; n++ {
						src := []byte{b0, b1, b2, b3}[:n]
						r, size := utf8.DecodeRune(src)
						want := size
						if r == utf8.RuneError && size == 1 {
							want = 0
						}
						if got := validRuneLen(src, 0); got != want {
							t.Fatalf("validRuneLen(% x) = %d, utf8 says %d", src, got, want)
						}
						checked++
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d cases checked", checked)
	}
}
