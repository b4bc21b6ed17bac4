package docdiff

// Kind says how a path differs.
type Kind string

// The three kinds of difference. Added and Removed are only reported for
// object members and array elements; a value whose type changes (a string
// that became null, an object that became an array) is Changed.
const (
	Changed Kind = "changed"
	Added   Kind = "added"
	Removed Kind = "removed"
)

// MaxValueBytes bounds Old and New. A whole snapshot can be replaced by a
// single Change (the root became another type); showing megabytes of it
// would bury the paths the reviewer is looking for.
const MaxValueBytes = 256

// Clip ends a value rendering that had to be cut.
const Clip = "…"

// Change is one differing path.
type Change struct {
	// Path is a JSON pointer (RFC 6901, "" for the whole document), spelled
	// as problems.Join spells the paths of validation errors. Array indices
	// are those of the new document, except for a Removed element, whose
	// index is in the old one.
	Path string `json:"path"`
	Kind Kind   `json:"kind"`
	// Old and New are compact canonical JSON renderings, cut to
	// MaxValueBytes (on a rune boundary) and then ended with Clip. Old is
	// "" for Added and New is "" for Removed. They are data from the
	// documents, not sanitized: a view must sanitize them.
	Old string `json:"old"`
	New string `json:"new"`
}
