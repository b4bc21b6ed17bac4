package canon

import "math/bits"

// Word-at-a-time scanning for the common case of long runs of ordinary
// bytes in strings. A mask may flag bytes that are fine, but only above a
// byte that truly needs attention (a borrow propagates upwards only from a
// real match), so the lowest flagged byte is always a real one.

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// escapeMask flags bytes below 0x20, '"' and '\\'.
func escapeMask(w uint64) uint64 {
	ctl := (w - lsb*0x20) &^ w
	q := w ^ (lsb * '"')
	bs := w ^ (lsb * '\\')
	return (ctl | (q-lsb)&^q | (bs-lsb)&^bs) & msb
}

// specialMask also flags non-ASCII bytes, which the scanner must validate.
func specialMask(w uint64) uint64 {
	return escapeMask(w) | w&msb
}

// firstFlagged is the index of the lowest flagged byte of a non-zero mask.
func firstFlagged(m uint64) int {
	return bits.TrailingZeros64(m) >> 3
}

func load64[T string | []byte](s T, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}
