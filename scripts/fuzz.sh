#!/usr/bin/env bash
# Runs every Go fuzz target in the module for $FUZZTIME each (default 30s).
# Go can fuzz only one target per invocation, so we enumerate them; targets
# are found by grepping the test files (`go test -list` would build the test
# binary of every package just to find the eight that fuzz).
#
# FUZZMINIMIZETIME (default 0) bounds how long the fuzzer minimizes an input.
# Go's default (60s per input) spends whole runs shrinking our multi-kilobyte
# state documents: the evaluator targets managed 11-46 executions in 100 s.
# With 0 every target runs at full rate; a crasher is still written to
# testdata/fuzz, and `FUZZMINIMIZETIME=60s` reproduces the old behaviour when
# a smaller crasher is wanted.
#
# FUZZTARGETS (optional) is a regular expression over "dir:FuzzName" to run
# a subset, e.g. FUZZTARGETS=evaluate.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-30s}"
FUZZMINIMIZETIME="${FUZZMINIMIZETIME:-0}"
FUZZTARGETS="${FUZZTARGETS:-.}"
status=0
found=0
while IFS=: read -r file name; do
  dir=$(dirname "$file")
  [[ "$dir:$name" =~ $FUZZTARGETS ]] || continue
  found=$((found + 1))
  echo "== ./$dir $name ($FUZZTIME, minimize $FUZZMINIMIZETIME)"
  if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" \
    -fuzzminimizetime "$FUZZMINIMIZETIME" "./$dir"; then
    status=1
  fi
done < <(git ls-files '*_test.go' | xargs grep -ho --with-filename -E '^func Fuzz[A-Za-z0-9_]*\(' |
  sed -E 's/:func (Fuzz[A-Za-z0-9_]*)\(/:\1/' | sort)
if [ "$found" -eq 0 ]; then
  echo "fuzz.sh: no fuzz target matched ${FUZZTARGETS}" >&2
  exit 1
fi
exit $status
