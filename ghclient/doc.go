// Package ghclient is all of prloop's GitHub I/O, built on
// github.com/cli/go-gh/v2 so that host and credentials resolve exactly as
// they do for gh.
//
// Reads return complete observations or errors: every connection is paged to
// its end, and an answer with GraphQL errors, a failed page or missing data
// is an error, never a partial result. REST GETs are conditional (ETag), and
// every read reports its Cost. Requests are retried with bounded backoff
// only when that cannot duplicate an effect (see retry.go); rate limits are
// waited out up to Options.MaxWait and announced through Options.OnWait.
//
// Everything GitHub returns is untrusted text; the token never appears in
// an error, a log line or a cache key.
package ghclient
