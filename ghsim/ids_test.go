package ghsim

import "testing"

// A seeded id is kept and later ids are issued above it, so a seed and a
// write through the API never collide.
func TestIDsClaim(t *testing.T) {
	g := newIDs()
	first := g.claim("review", 0)
	if first != 2300000001 {
		t.Fatalf("first review id %d", first)
	}
	if got := g.claim("review", 2300000500); got != 2300000500 {
		t.Fatalf("seeded id changed to %d", got)
	}
	if got := g.claim("review", 0); got != 2300000501 {
		t.Errorf("next id after a seed %d, want 2300000501", got)
	}
	if got := g.claim("review", 5); got != 5 || g.claim("review", 0) != 2300000502 {
		t.Errorf("a seed below the counter must neither change nor lower it")
	}
	if g.claim("issue-comment", 0) != 2600000001 {
		t.Error("kinds count separately")
	}
}

func TestCopies(t *testing.T) {
	a, b := &Reaction{Content: "eyes"}, &Reaction{Content: "+1"}
	got := copies([]*Reaction{a, b})
	a.Content = "changed"
	if len(got) != 2 || got[0].Content != "eyes" || got[1].Content != "+1" {
		t.Errorf("copies = %+v, want snapshots taken before the change", got)
	}
	if got := copies[Reaction](nil); got == nil || len(got) != 0 {
		t.Errorf("copies(nil) = %#v, want an empty slice", got)
	}
}
