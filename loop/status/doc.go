// Package status is the read model of one running loop: everything the
// live console (`gh-prloop watch`) and the `--all` table show, built from
// the run's checkpoint, its wakeup history, the latest recurring state and
// the evaluator's result. It holds no behaviour beyond describing that data
// in words, so the console can be built and tested without a running loop,
// and the wakeup can fill it without knowing how it is drawn.
//
// Every string in a Loop may come from GitHub (titles, paths, bodies,
// notices, receipts) and is untrusted: the console sanitizes it when it
// renders it, never here, so that the model keeps the exact bytes.
package status
