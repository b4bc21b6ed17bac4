// Package planner builds the initial document of an approval-gated or
// autonomous session: a fresh observation of the checkout (local) and of
// GitHub (ghclient) becomes the initial snapshot, the manifest derived from it,
// and the plan hash — and core validates the whole document before anyone sees
// it. Rebuilding from the same inputs and run id must reproduce the same hash
// byte for byte; any difference is drift, and drift permits nothing.
//
// Nothing here writes to git, GitHub or the state directory.
package planner
