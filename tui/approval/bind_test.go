package approval

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Break 1: the bytes shown must be the bytes the plan hashes. A file whose
// shown content is not the plan's blob is marked, and typing the exact
// plan hash is refused without a re-check or a record.
func TestShownContentMustBeThePlansBlob(t *testing.T) {
	v := sampleView(t)
	v.Files[1].New = strings.Replace(v.Files[1].New, "line 20, changed", "line 20, swapped", 1) // Y shown, X bound
	var k calls
	m := New(k.config(v, RecheckResult{Document: v.Document, PlanHash: v.PlanHash}, "must not happen"), asciiStyles())
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	settle(m)
	if m.unbound[1] == "" || m.unbound[0] != "" || m.unbound[2] != "" {
		t.Fatalf("unbound %q", m.unbound)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(v.PlanHash)})
	if cmd := m.submit(); cmd != nil || m.state != stateReview {
		t.Fatalf("the exact hash of a plan whose shown file is not its blob must be refused (state %d)", m.state)
	}
	if !strings.Contains(m.View(), "Not approved: src/long.txt changed since the plan was built") {
		t.Fatalf("view:\n%s", m.View())
	}
	if re, rec := k.counts(); re != 0 || rec != 0 {
		t.Fatalf("Recheck %d, Record %d", re, rec)
	}
}

func TestUnboundSides(t *testing.T) {
	sha1Like := strings.Repeat("0", 40)
	good := bindFiles(File{Path: "a", Old: "x\n", New: "y\n"})[0]
	if why := good.unbound(); why != "" {
		t.Fatalf("bound file refused: %s", why)
	}
	cases := map[string]File{
		"old side differs":     func() File { f := good; f.Old = "z\n"; return f }(),
		"new side differs":     func() File { f := good; f.New = "z\n"; return f }(),
		"no new id":            func() File { f := good; f.NewBlob = ""; return f }(),
		"no old id":            func() File { f := good; f.OldBlob = ""; return f }(),
		"staged id is another": func() File { f := good; f.New = "z\n"; f.NewStagedBlob = sha1Like; return f }(),
		"deleted, old differs": {Path: "d", Status: Deleted, Old: "q", OldBlob: gitBlobID(sha1Like, "p")},
	}
	for name, f := range cases {
		if f.unbound() == "" {
			t.Errorf("%s: accepted", name)
		}
	}
	// git converted the file when staging it and said so for these bytes.
	conv := good
	conv.New = "y\r\n"
	conv.NewStagedBlob = conv.NewBlob
	if why := conv.unbound(); why != "" {
		t.Errorf("converted file refused: %s", why)
	}
	// SHA-256 repositories: the id's length picks the format.
	if id := gitBlobID(strings.Repeat("0", 64), ""); id != "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813" {
		t.Errorf("sha256 empty blob %s", id)
	}
	if id := gitBlobID(sha1Like, ""); id != "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" {
		t.Errorf("sha1 empty blob %s", id)
	}
}
