// Package core is the pure heart of prloop: canonical JSON, the exact schemas,
// their validators, classification of Codex output and the recurring evaluator.
//
// Nothing below core performs I/O or reads a clock; time always arrives as data
// (observed_at). Every other package calls into core and core calls out to none
// of them, so every rule here can be tested as a function of its input.
package core
