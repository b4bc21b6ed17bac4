// Package ruletest holds the test helpers shared by the validators' tests
// (core/validate, core/bootstrap, core/evaluate): problem assertions,
// walking a canon Value, and the fuzz, corpus and benchmark scaffolding.
// Only _test.go files import it. Like the rest of core it does no I/O of
// its own: a corpus is handed in as an fs.FS.
package ruletest
