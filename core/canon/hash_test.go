package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestHashKnownVectors(t *testing.T) {
	// FIPS 180-2 test vectors.
	if got := Hash([]byte("abc")); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("Hash(abc) = %s", got)
	}
	if got := Hash(nil); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Fatalf("Hash(empty) = %s", got)
	}
}

func TestHashValueMatchesHashOfEncoding(t *testing.T) {
	// Big enough to cross many flush boundaries of the streaming encoder,
	// including a single string longer than the flush buffer.
	items := make([]any, 0, 5000)
	for i := 0; i < 5000; i++ {
		items = append(items, map[string]any{"i": i, "s": strings.Repeat("é<\n", i%50), "n": nil})
	}
	values := []any{
		nil,
		"x",
		map[string]any{"b": 1, "a": "\u2028"},
		map[string]any{"items": items, "huge": strings.Repeat("a\"", 3*flushAt)},
	}
	for _, v := range values {
		enc, err := Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		want := sha256.Sum256(enc)
		for round := 0; round < 2; round++ { // second round reuses a pooled encoder
			got, err := HashValue(v)
			if err != nil {
				t.Fatal(err)
			}
			if got != hex.EncodeToString(want[:]) {
				t.Fatalf("HashValue = %s, want %s (len %d)", got, hex.EncodeToString(want[:]), len(enc))
			}
		}
	}
}

func TestHashValueStructsUseMarshal(t *testing.T) {
	v := marshalOuter{Zeta: "z", Labels: map[string]string{"k": "v"}, Big: "5", Ratio: 2}
	b, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := HashValue(v)
	if err != nil {
		t.Fatal(err)
	}
	if got != Hash(b) {
		t.Fatalf("HashValue(struct) = %s, Hash(Marshal) = %s", got, Hash(b))
	}
	// A failed fast attempt must not leave partial bytes in the digest:
	// this value fails late, after a large prefix was streamed.
	v2 := map[string]any{"a": strings.Repeat("x", 2*flushAt), "z": 4.0}
	b2, err := Marshal(v2)
	if err != nil {
		t.Fatal(err)
	}
	got2, err := HashValue(v2)
	if err != nil {
		t.Fatal(err)
	}
	if got2 != Hash(b2) {
		t.Fatalf("HashValue after fallback = %s, want %s", got2, Hash(b2))
	}
	if _, err := HashValue(map[string]any{"a": 0.5}); err == nil {
		t.Fatal("HashValue accepted a fraction")
	}
}
