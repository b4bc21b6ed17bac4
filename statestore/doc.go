// Package statestore is the run's state directory (PROTOCOL §7): where the
// approved initial document, and later every round's manifests, approvals,
// receipts and the operation journal, live between invocations.
//
// Layout under the root (see Root):
//
//	<root>/runs/<dir>/key       the exact key the directory belongs to
//	<root>/runs/<dir>/lock      the exclusive lock (flock) of the run
//	<root>/runs/<dir>/<record>  records, each replaced atomically
//
// <dir> is DirName(key): a readable part of the key followed by a digest of
// the whole key, so that two keys never share a directory even when their
// readable parts agree, and a key may contain any character (an automation
// key is derived from remote text) without ever naming a path outside runs/.
//
// Two guarantees the rest of the product relies on:
//   - a crash never leaves a torn record: a record is written to a temporary
//     file in the same directory, synced, renamed over the old one, and the
//     directory is synced; a reader sees the old bytes or the new ones;
//   - a watching console and a scheduled wakeup never act at once: every
//     write requires the run's exclusive lock, held through Lock.
package statestore
