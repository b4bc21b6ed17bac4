// Package automations is the Automation registry of PROTOCOL §7: one record
// per automation (the loop a run leaves behind), in one file directly under
// the state root, automations.json, shared by every run.
//
// The file is canonical JSON, {"automations":[record…],"version":1}, the
// records sorted by key, at most one per key. It is only ever replaced whole
// (statestore.Shared: temp file, fsync, rename, fsync of the directory) and
// only under its exclusive lock, so two processes creating the same key end
// with one record and a crash leaves the old file or the new one.
//
// Every read validates the whole file and refuses one that is not exactly
// what this package writes — a torn write, a hand edit, an unknown field, a
// prompt whose hash does not match — with a CorruptError naming each field
// by its JSON path. Nothing is repaired silently: a loop acting on a
// registry it had to guess at could act twice or never stop.
//
// Life of a record: the executor's bootstrap-automation step creates a
// PAUSED stub (CreatePaused), gives it the rendered prompt core accepted
// (SetPrompt), then re-reads and verifies prompt hash and schedule before
// making it ACTIVE (Activate). A halted loop is paused with its reason
// (Pause); a human resumes or deletes it (`gh-prloop automations …`).
package automations
