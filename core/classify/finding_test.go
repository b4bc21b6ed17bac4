package classify

import "testing"

func TestParseFinding(t *testing.T) {
	cases := []struct {
		name, body, prio, title string
	}{
		{"real P1 inline comment", fixture(t, "finding_p1.md"), "P1", "Wait for merge-queue completion before verifying the landing"},
		{"real P2 inline comment", fixture(t, "finding_p2_usage_wording.md"), "P2", "Keep the prior limit-before-review ordering matched"},
		{"P0 red badge", "**<sub><sub>![P0 Badge](https://img.shields.io/badge/P0-red?style=flat)</sub></sub>  Replace hosted runner in CI standard workflow**\n\nbody", "P0", "Replace hosted runner in CI standard workflow"},
		{"P3 without sub wrappers", "**![P3 Badge](https://img.shields.io/badge/P3-blue)**  Use C#\n", "P3", "Use C#"},
		{"leading blank lines", "\n\n**<sub><sub>![P2 Badge](https://img.shields.io/badge/P2-yellow?style=flat)</sub></sub>  Title**", "P2", "Title"},
		{"no badge", "Plain reply from the bot\nsecond line", "", "Plain reply from the bot"},
		{"P4 is not a priority", "![P4 Badge](https://img.shields.io/badge/P4-grey) Nope", "", "![P4 Badge](https://img.shields.io/badge/P4-grey) Nope"},
		{"empty", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, title := ParseFinding(tc.body)
			if p != tc.prio || title != tc.title {
				t.Errorf("got (%q, %q), want (%q, %q)", p, title, tc.prio, tc.title)
			}
		})
	}
}
