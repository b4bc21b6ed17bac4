// Package canon holds prloop's canonical JSON: a strict decoder, an encoder
// whose bytes equal Python's
//
//	json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
//
// and the SHA-256 digests built on those bytes (PROTOCOL.md §2).
//
// Every digest in a manifest is recomputed by the Python evaluator, so a single
// differing byte would make Go and Python disagree about what a human approved.
// That is why the encoder mirrors Python escaping exactly and why the decoder
// refuses, rather than repairs, anything Python and Go could read differently
// (duplicate keys, lone surrogates, floats, invalid UTF-8).
//
// A Value is nil, bool, string, Number, []any or map[string]any; Parse only
// ever returns those. For a document that arrives as bytes,
// Hash(Canonicalize(data)) is the fast path: it never builds Values. HashValue
// digests Values and Go structs. The package performs no I/O.
package canon
