package sandbox

import (
	"bytes"
	"strings"
	"testing"
)

func TestTailBufferKeepsTheLastBytesInOrder(t *testing.T) {
	var live bytes.Buffer
	tb := newTailBuffer(10, &live)
	var all strings.Builder
	for _, w := range []string{"abc", "defg", "hijkl", "m", "nopqrstuvwxyz0123", "45", "6789AB"} {
		tb.Write([]byte(w))
		all.WriteString(w)
		got, trunc := tb.result()
		want := all.String()
		if len(want) > 10 {
			want = want[len(want)-10:]
		}
		if string(got) != want || trunc != (all.Len() > 10) {
			t.Fatalf("after %q: %q %v, want %q %v", w, got, trunc, want, all.Len() > 10)
		}
	}
	if live.String() != all.String() {
		t.Fatalf("live %q, want %q", live.String(), all.String())
	}
}

func TestTailBufferUnderTheLimitIsWhole(t *testing.T) {
	tb := newTailBuffer(100, nil)
	tb.Write([]byte("hello "))
	tb.Write([]byte("world"))
	if got, trunc := tb.result(); string(got) != "hello world" || trunc {
		t.Fatalf("%q %v", got, trunc)
	}
}
