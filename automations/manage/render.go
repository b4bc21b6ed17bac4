package manage

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/prloop/gh-prloop/automations"
	"github.com/prloop/gh-prloop/tui/sanitize"
)

// JSON is a record as --json prints it: a map, so that encoding/json writes
// its keys sorted and compact output is the record's canonical form.
func JSON(r automations.Record) map[string]any {
	return map[string]any{
		"created_at": r.CreatedAt, "id": r.ID, "key": r.Key, "name": r.Name,
		"prompt": r.Prompt, "prompt_sha256": r.PromptSHA256, "reason": r.Reason,
		"rrule": r.RRule, "run_id": r.RunID, "status": r.Status, "updated_at": r.UpdatedAt,
	}
}

// JSONList is the list as --json prints it: always an array.
func JSONList(recs []automations.Record) []map[string]any {
	out := make([]map[string]any, 0, len(recs))
	for _, r := range recs {
		out = append(out, JSON(r))
	}
	return out
}

// Column widths of the table; the key is printed whole, it is what the
// other commands take.
const (
	nameWidth   = 32
	reasonWidth = 48
)

// WriteTable prints one line per automation: status, key, name, last
// update and, for a paused one, why.
func WriteTable(w io.Writer, recs []automations.Record) error {
	if len(recs) == 0 {
		_, err := fmt.Fprintln(w, "No automations.")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "STATUS\tKEY\tNAME\tUPDATED\tREASON")
	for _, r := range recs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Status, sanitize.Line(r.Key, 1024),
			sanitize.Line(r.Name, nameWidth), r.UpdatedAt, sanitize.Line(r.Reason, reasonWidth))
	}
	return tw.Flush()
}

// WriteDetail prints every field of one automation, the prompt last and
// whole (it is what the loop runs on).
func WriteDetail(w io.Writer, r automations.Record) error {
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "%s\t%s\n", k, sanitize.Line(v, 4096)) }
	row("key", r.Key)
	row("id", r.ID)
	row("name", r.Name)
	row("status", r.Status)
	if r.Reason != "" {
		row("reason", r.Reason)
	}
	row("schedule", r.RRule)
	row("run", r.RunID)
	row("created", r.CreatedAt)
	row("updated", r.UpdatedAt)
	row("prompt sha256", r.PromptSHA256)
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Prompt == "" {
		_, err := fmt.Fprintln(w, "\nNo prompt yet: the run's bootstrap has not finished (`gh-prloop apply` resumes it).")
		return err
	}
	_, err := fmt.Fprintf(w, "\nprompt:\n%s\n", indent(sanitize.Text(r.Prompt)))
	return err
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }
