package watch

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/keys"
)

// KeyMap is the watch screen's bindings. Quitting and help are the global
// ones, and every key bar this screen draws ends with them, so `?` and `q`
// are always visible.
type KeyMap struct {
	keys.Global
	Up      key.Binding
	Down    key.Binding
	Open    key.Binding
	Back    key.Binding
	Browse  key.Binding
	Yank    key.Binding
	Wakeup  key.Binding
	Approve key.Binding
	Scroll  keys.Scroll // the detail view's
}

// NewKeyMap returns the bindings.
func NewKeyMap() KeyMap {
	return KeyMap{
		Global:  keys.NewGlobal(),
		Up:      key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:    key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back")),
		Browse:  key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "browser")),
		Yank:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy URL")),
		Wakeup:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "wake up")),
		Approve: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve")),
		Scroll:  keys.NewScroll(),
	}
}

// listHelp is the key bar of the main screen.
type listHelp struct {
	k        KeyMap
	approval bool // a plan awaits approval and this console can approve it
	width    int
}

func (h listHelp) ShortHelp() []key.Binding {
	b := []key.Binding{h.k.Open, h.k.Wakeup, h.k.Browse, h.k.Yank, h.k.Down}
	if h.approval {
		b = append([]key.Binding{h.k.Approve}, b...)
	}
	return fitBar(b, []key.Binding{h.k.Help, h.k.Quit}, h.width)
}

// fitBar keeps the bar to width by dropping the screen's own keys from the
// end: the help truncates from the right, and ? and q, which come last,
// must always be visible.
func fitBar(own, always []key.Binding, width int) []key.Binding {
	barWidth := func(bs []key.Binding) int {
		n := 0
		for i, b := range bs {
			if i > 0 {
				n += len(" • ")
			}
			n += ansi.StringWidth(b.Help().Key) + 1 + ansi.StringWidth(b.Help().Desc)
		}
		return n
	}
	for width > 0 && len(own) > 0 && barWidth(append(own[:len(own):len(own)], always...)) > width {
		own = own[:len(own)-1]
	}
	return append(own[:len(own):len(own)], always...)
}

func (h listHelp) FullHelp() [][]key.Binding {
	first := []key.Binding{h.k.Up, h.k.Down, h.k.Open}
	if h.approval {
		first = append(first, h.k.Approve)
	}
	return [][]key.Binding{first, {h.k.Browse, h.k.Yank, h.k.Wakeup}, {h.k.Help, h.k.Quit}}
}

// detailHelp is the key bar of the thread detail view.
type detailHelp struct {
	k     KeyMap
	width int
}

func (h detailHelp) ShortHelp() []key.Binding {
	return fitBar([]key.Binding{h.k.Back, h.k.Scroll.Down, h.k.Browse, h.k.Yank}, []key.Binding{h.k.Help, h.k.Quit}, h.width)
}

func (h detailHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{h.k.Back, h.k.Browse, h.k.Yank},
		{h.k.Scroll.Up, h.k.Scroll.Down},
		{h.k.Scroll.PageUp, h.k.Scroll.PageDown},
		{h.k.Help, h.k.Quit},
	}
}

// promptHelp is the key bar of a question's screen.
type promptHelp struct {
	p     prompt
	width int
}

func (h promptHelp) ShortHelp() []key.Binding  { return h.p.shortHelp(h.width) }
func (h promptHelp) FullHelp() [][]key.Binding { return h.p.fullHelp() }
