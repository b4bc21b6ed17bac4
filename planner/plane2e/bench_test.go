package plane2e

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/prloop/gh-prloop/ghsim/testbed"
	"github.com/prloop/gh-prloop/planner"
	"github.com/prloop/gh-prloop/tui/approval"
	"github.com/prloop/gh-prloop/tui/theme"
)

// BenchmarkTimeToFirstScreen is what `plan` does between a built plan and
// the console's first screen with 20 changed files of about 860 KB (every
// third line changed): read and bind every side (planner.Files), then New,
// SetSize and View. The diffs follow in the background.
func BenchmarkTimeToFirstScreen(b *testing.B) {
	bed, err := testbed.New(context.Background(), testbed.Options{Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer bed.Close()
	var old, nw strings.Builder
	for i := 0; old.Len() < 860<<10; i++ {
		line := fmt.Sprintf("line %6d of a large generated file, padded to read like code;\n", i)
		old.WriteString(line)
		if i%3 == 0 {
			line = fmt.Sprintf("LINE %6d was changed by the plan %d;\n", i, i*7)
		}
		nw.WriteString(line)
	}
	for i := range 20 {
		writeFile(b, bed.Path(fmt.Sprintf("gen/f%02d.txt", i)), nw.String())
	}
	p, err := planner.Build(context.Background(), bed.Deps(), bed.Inputs(title, body), freshRunID(b))
	if err != nil {
		b.Fatal(err)
	}
	st := theme.New(theme.NewRenderer(io.Discard, false), theme.Default())
	b.ResetTimer()
	for b.Loop() {
		files, err := planner.Files(context.Background(), bed.Runner, p)
		if err != nil {
			b.Fatal(err)
		}
		v := approval.FromDocument(p.Doc, p.Canonical)
		v.Files = files
		m := approval.New(approval.Config{View: v}, &st)
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		_ = m.View()
	}
}
