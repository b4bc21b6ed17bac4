// Package docdiff lists the fields that differ between two canonical JSON
// documents. It exists for one moment: the human approved a plan hash, the
// plan was rebuilt from fresh observations, and the hashes differ. A hash
// says only "something changed"; the reviewer needs to see which fields did
// (a new untracked file, a moved base tip, an edited git config) to decide
// whether to plan again. The package is pure: no I/O, no clock.
package docdiff
