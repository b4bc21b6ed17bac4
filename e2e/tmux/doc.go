// Package tmux drives gh-prloop's consoles on a real terminal: a private
// tmux server (its own socket, no user configuration) runs `make demo` or
// `gh-prloop watch`, the tests read the screen with capture-pane and type
// with send-keys, polling the screen a bounded number of times (never
// asserting on durations). It holds only tests. Without tmux they skip,
// unless PRLOOP_REQUIRE_TMUX is set (CI sets it), when they fail.
package tmux
