package approval

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/prloop/gh-prloop/tui/sanitize"
)

// hashInput is the one-line field the hash is typed or pasted into. It is
// not bubbles/textinput on purpose: that widget's ctrl+v reads the system
// clipboard by running xclip/xsel/pbpaste, and a console that gates writes
// to a repository should not start programs on a keystroke. Terminal paste
// (bracketed paste) arrives as ordinary runes and works.
type hashInput struct {
	value   []rune
	pos     int
	focused bool
	limit   int

	placeholder          string
	text, muted, cursorS lipgloss.Style

	left, right, home, end, back, del, clear key.Binding
}

func newHashInput(text, muted lipgloss.Style, placeholder string, limit int) hashInput {
	return hashInput{
		limit: limit, placeholder: placeholder, text: text, muted: muted, cursorS: text.Reverse(true),
		left:  key.NewBinding(key.WithKeys("left", "ctrl+b")),
		right: key.NewBinding(key.WithKeys("right", "ctrl+f")),
		home:  key.NewBinding(key.WithKeys("home", "ctrl+a")),
		end:   key.NewBinding(key.WithKeys("end", "ctrl+e")),
		back:  key.NewBinding(key.WithKeys("backspace", "ctrl+h")),
		del:   key.NewBinding(key.WithKeys("delete", "ctrl+d")),
		clear: key.NewBinding(key.WithKeys("ctrl+u")),
	}
}

func (h *hashInput) Focus()        { h.focused = true }
func (h *hashInput) Blur()         { h.focused = false }
func (h *hashInput) Value() string { return string(h.value) }
func (h *hashInput) Reset()        { h.value, h.pos = nil, 0 }

// Update edits the value. Control and invisible characters are never
// inserted: what is in the field is what is on the screen.
func (h *hashInput) Update(k tea.KeyMsg) {
	switch {
	case key.Matches(k, h.left):
		h.pos = max(h.pos-1, 0)
	case key.Matches(k, h.right):
		h.pos = min(h.pos+1, len(h.value))
	case key.Matches(k, h.home):
		h.pos = 0
	case key.Matches(k, h.end):
		h.pos = len(h.value)
	case key.Matches(k, h.back):
		if h.pos > 0 {
			h.value = append(h.value[:h.pos-1], h.value[h.pos:]...)
			h.pos--
		}
	case key.Matches(k, h.del):
		if h.pos < len(h.value) {
			h.value = append(h.value[:h.pos], h.value[h.pos+1:]...)
		}
	case key.Matches(k, h.clear):
		h.value = append([]rune(nil), h.value[h.pos:]...)
		h.pos = 0
	case k.Type == tea.KeyRunes || k.Type == tea.KeySpace:
		// Whitespace is shown as one space per run, so that a two-line
		// paste (newline and indentation) reads like the hash as shown.
		var ins []rune
		prevSpace := h.pos > 0 && h.value[h.pos-1] == ' '
		for _, r := range k.Runes {
			if len(h.value)+len(ins) >= h.limit {
				break
			}
			switch {
			case unicode.IsSpace(r):
				if !prevSpace {
					ins = append(ins, ' ')
				}
				prevSpace = true
			case unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r):
				ins = append(ins, r)
				prevSpace = false
			}
		}
		h.value = append(h.value[:h.pos], append(ins, h.value[h.pos:]...)...)
		h.pos += len(ins)
	}
}

// Cursor glyphs for a screen without colour.
const (
	cursorBlock = "█"
	cursorBar   = "▏"
)

// View draws the field in width cells, keeping the cursor visible: a value
// longer than the field scrolls so that the cursor stays on screen.
func (h *hashInput) View(width int) string {
	if width <= 0 {
		return ""
	}
	// Without colour (NO_COLOR, a dumb terminal) reverse video renders as
	// nothing, so the cursor is drawn as a glyph instead: a block at the
	// end, a bar before the character it is on.
	plain := h.cursorS.Render(" ") == " "
	if len(h.value) == 0 {
		cur := ""
		if h.focused {
			cur = h.cursorS.Render(" ")
			if plain {
				cur = cursorBlock
			}
			width--
		}
		return cur + h.muted.Render(sanitize.Line(h.placeholder, width))
	}
	before := string(h.value[:h.pos])
	at, after := " ", ""
	if h.pos < len(h.value) {
		at, after = string(h.value[h.pos]), string(h.value[h.pos+1:])
	}
	if h.focused && plain {
		if h.pos == len(h.value) {
			at = cursorBlock
		} else {
			at, after = cursorBar, at+after
		}
	}
	// Show the end of a long value: that is where typing happens.
	room := width - 1
	if w := ansi.StringWidth(before); w > room {
		before = ansi.TruncateLeft(before, w-room+1, "…")
	}
	room -= ansi.StringWidth(before)
	after = ansi.Truncate(after, max(room, 0), "…")
	cursor := h.text.Render(at)
	if h.focused {
		cursor = h.cursorS.Render(at)
	}
	return strings.TrimRight(h.text.Render(before)+cursor+h.text.Render(after), " ")
}
