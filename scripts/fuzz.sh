#!/usr/bin/env bash
# Runs every Go fuzz target in the module for $FUZZTIME each (default 30s).
# Go can fuzz only one target per invocation, so we enumerate them.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-30s}"
status=0
for pkg in $(go list ./...); do
  targets=$(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true)
  for t in $targets; do
    echo "== $pkg $t ($FUZZTIME)"
    if ! go test -run '^$' -fuzz "^${t}\$" -fuzztime "$FUZZTIME" "$pkg"; then
      status=1
    fi
  done
done
exit $status
