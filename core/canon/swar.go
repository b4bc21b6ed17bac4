package canon

// Word-at-a-time scanning for the common case of long runs of plain ASCII in
// strings. Each check may report false positives (the caller then looks at
// the bytes one by one) but never a false negative.

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// specialWord reports whether any of the 8 bytes is below 0x20, '"', '\\'
// or non-ASCII.
func specialWord(w uint64) bool {
	ctl := (w - lsb*0x20) &^ w
	q := w ^ (lsb * '"')
	bs := w ^ (lsb * '\\')
	return (ctl|(q-lsb)&^q|(bs-lsb)&^bs|w)&msb != 0
}

func load64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}
