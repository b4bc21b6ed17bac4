#!/usr/bin/env bash
# Peak RSS and wall time of `gh-prloop hash` and `gh-prloop evaluate --state`
# on generated documents of strings, integers and one wide object, 10 and
# 100 MB each (issue 12, break 4). Needs python3 and GNU time (/usr/bin/time).
#
#   bash scripts/bench_rss.sh            # 10 and 100 MB
#   SIZES="10" bash scripts/bench_rss.sh # only 10 MB
#   CMDS=evaluate BIN=/tmp/old/gh-prloop bash scripts/bench_rss.sh
#
# Prints one row per (command, document): size, exit status, max RSS in MiB,
# RSS as a multiple of the input, and elapsed seconds. Timings are printed,
# never asserted: the machine may be shared.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES="${SIZES:-10 100}"
BIN="${BIN:-}"
CMDS="${CMDS:-hash evaluate}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$BIN" ]; then
  go build -o "$work/gh-prloop" ./cmd/gh-prloop
  BIN="$work/gh-prloop"
fi
[ -x /usr/bin/time ] || { echo "bench_rss: GNU time (/usr/bin/time) is required" >&2; exit 2; }

gen() { # gen KIND MB FILE
  python3 - "$1" "$2" "$3" <<'PY'
import sys
kind, mb, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
target = mb * 1000 * 1000
with open(path, "w") as f:
    if kind == "strings":
        f.write("[")
        n, i = 1, 0
        while n < target:
            s = ('"s%014d"' % i) if i == 0 else (',"s%014d"' % i)
            f.write(s); n += len(s); i += 1
        f.write("]")
    elif kind == "integers":
        f.write("[")
        n, i = 1, 0
        while n < target:
            s = str(i * 7919 % 100000)
            s = s if i == 0 else "," + s
            f.write(s); n += len(s); i += 1
        f.write("]")
    elif kind == "object":
        f.write("{")
        n, i = 1, 0
        while n < target:
            s = '"k%09d":%d' % (i, i % 1000)
            s = s if i == 0 else "," + s
            f.write(s); n += len(s); i += 1
        f.write("}")
PY
}

printf '%-10s %-9s %6s %5s %9s %6s %8s\n' command document MB exit maxRSS_MiB xInput seconds
for mb in $SIZES; do
  for kind in strings integers object; do
    doc="$work/$kind-$mb.json"
    gen "$kind" "$mb" "$doc"
    bytes=$(stat -c %s "$doc")
    for cmd in $CMDS; do
      args=(hash "$doc")
      [ "$cmd" = evaluate ] && args=(evaluate --state "$doc")
      set +e
      /usr/bin/time -f '%M %e' -o "$work/time" "$BIN" "${args[@]}" >"$work/out" 2>/dev/null
      rc=$?
      set -e
      read -r kb secs < <(tail -n 1 "$work/time")
      awk -v c="$cmd" -v k="$kind" -v b="$bytes" -v rc="$rc" -v kb="$kb" -v s="$secs" \
        'BEGIN { printf "%-10s %-9s %6.0f %5d %9.0f %6.1f %8.2f\n", c, k, b/1e6, rc, kb/1024, kb*1024/b, s }'
    done
    rm -f "$doc"
  done
done
