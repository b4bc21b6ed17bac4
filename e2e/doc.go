// Package e2e runs the production GitHub client (ghclient, on go-gh) against
// the loopback simulator (ghsim) and through the report-only pipeline
// (inspect, tui/report). Its tests and benchmarks are the proof that the two
// halves agree on GitHub's wire contract, that an observation costs what
// ghclient/doc.go says it costs, and that faults end in a retry or a clear
// error but never in a classification of partial data.
//
// Nothing here touches the network beyond 127.0.0.1. The package holds only
// tests; this file exists so that it has documentation.
package e2e
