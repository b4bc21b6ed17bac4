// Package manage is what the `gh-prloop automations` commands do besides
// calling the registry: find the automation a human named (by key or id),
// print it (a table, a detail view, JSON), and decide and ask whether a
// delete needs confirmation. cmd/gh-prloop only wires flags to it.
//
// Every string printed here went through tui/sanitize: a name or a reason
// can quote remote text.
package manage
