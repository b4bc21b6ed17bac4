package footer

import (
	"strings"
	"testing"

	"github.com/prloop/gh-prloop/tui/keys"
	"github.com/prloop/gh-prloop/tui/testutil"
)

func TestFooter(t *testing.T) {
	m := New(testutil.Styles())
	m.SetSize(80, 0)
	km := keys.NewGlobal()
	m.SetData(Data{Error: "boom\x1b]0;x\a", Status: "hidden", Info: []string{"next refresh in 3s", "", "cost 1"}})
	v := m.View(km)
	want := "boom\nnext refresh in 3s · cost 1\n? toggle help • q quit"
	if v != want {
		t.Errorf("got\n%q\nwant\n%q", v, want)
	}
	if m.Height(km) != 3 {
		t.Errorf("height %d", m.Height(km))
	}
	m.SetData(Data{Status: "ok"})
	if v := m.View(nil); v != "ok" {
		t.Errorf("status only: %q", v)
	}
	m.ShowAll(true)
	if !m.ShowingAll() || !strings.Contains(m.View(km), "toggle help") {
		t.Error("full help")
	}
}
