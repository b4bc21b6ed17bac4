#!/usr/bin/env bash
# make demo step 5: the whole loop on the simulator — the same commands a
# user types, with the real binary and a real checkout:
#   gh-prloop sim …      GitHub + git over HTTPS on 127.0.0.1, scripted Codex
#                        (findings, findings again, then 👍), time 30× faster
# On a terminal (stdin and stdout), approval-gated:
#   gh-prloop start --mode approval-gated --fixer 'gh-prloop sim fix'
#     the approval console (type the plan hash), execution, then the loop's
#     watch console: it drives the wakeups on the simulator's clock and opens
#     the approval screen of each fix round and of the finalization (type
#     each hash); q once it shows the loop finalized.
# Otherwise, autonomous, nothing prompts (stdin is /dev/null throughout):
#   gh-prloop start --mode autonomous --fixer 'gh-prloop sim fix'
#   gh-prloop wakeup --all --json   until no loop is ACTIVE (one line each)
# Both end with the merge gates the loop reported when it finished.
# Usage: scripts/demo_loop.sh [BINARY]   (default bin/gh-prloop)
#        PRLOOP_DEMO_HEADLESS=1 forces the autonomous transcript.
set -euo pipefail
bin=$(cd "$(dirname "${1:-bin/gh-prloop}")" && pwd)/$(basename "${1:-bin/gh-prloop}")

work=$(mktemp -d "${TMPDIR:-/tmp}/gh-prloop-demo-loop-XXXXXX")
simpid=
cleanup() {
  if [ -n "$simpid" ]; then kill "$simpid" 2>/dev/null || true; wait "$simpid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -m 700 "$work/world" "$work/state"
# Codex finds something on the first two requests and answers the third with 👍;
# simulated time runs 30× faster, the bot's steps 20 simulated seconds apart,
# CI passes 20 simulated seconds after each push (before Codex answers).
"$bin" sim --scenario findings,findings,clean-by-reaction --time-scale 30 --bot-delay 20s --check-delay 20s \
  --dir "$work/world" >"$work/info.json" 2>"$work/sim.err" </dev/null &
simpid=$!
for _ in $(seq 1 300); do
  [ -s "$work/info.json" ] && break
  kill -0 "$simpid" 2>/dev/null || { cat "$work/sim.err" >&2; exit 1; }
  sleep 0.1
done
[ -s "$work/info.json" ] || { echo "demo: the simulator printed nothing" >&2; exit 1; }

# Export the simulator's environment (GitHub API, git host, CA, token).
eval "$(python3 -c 'import json,shlex,sys
d=json.load(open(sys.argv[1]))
print("checkout=%s" % shlex.quote(d["checkout"]))
for k,v in d["env"].items(): print("export %s=%s" % (k, shlex.quote(v)))' "$work/info.json")"
export GH_PRLOOP_STATE_DIR="$work/state"
cd "$checkout"

interactive=
if [ -t 0 ] && [ -t 1 ] && [ -z "${PRLOOP_DEMO_HEADLESS:-}" ]; then interactive=1; fi

if [ -n "$interactive" ]; then
  echo "   start --mode approval-gated --fixer '<gh-prloop> sim fix' (the simulator's scripted fixer)"
  echo "   Type each plan hash shown (the initial plan, two fix rounds, the finalization), then enter;"
  echo "   read each fix round's diff and press y to commit it (n refuses: nothing is committed)."
  echo "   The watch console drives the loop on the simulator's clock; q once it shows the loop finalized."
  "$bin" start --mode approval-gated --fixer "'$bin' sim fix" -t "Fix the budget rounding"
  echo "   the loop's history (gh-prloop wakeup records):"
  python3 -c 'import glob,json,os,sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "runs", "*", "history.jsonl"))):
    for n, line in enumerate(open(f), 1):
        d=json.loads(line)
        print("     wakeup %-3s %-22s %s" % (n, d.get("action",""), d.get("reason","")))' "$GH_PRLOOP_STATE_DIR" || true
else
  echo "   start --mode autonomous --fixer '<gh-prloop> sim fix' (the simulator's scripted fixer)"
  "$bin" start --mode autonomous --fixer "'$bin' sim fix" -t "Fix the budget rounding" </dev/null 2>&1 | sed 's/^/     /'

  echo "   wakeup --all --json until no loop is ACTIVE:"
  finished=
  for n in $(seq 1 120); do
    set +e
    out=$("$bin" wakeup --all --json </dev/null 2>"$work/wakeup.err")
    code=$?
    set -e
    if [ -n "$out" ]; then
      printf '%s\n' "$out" | python3 -c 'import json,sys
n=sys.argv[1]
for line in sys.stdin:
    d=json.loads(line)
    print("     wakeup %-3s %-22s %-20s %s" % (n, d["action"], d["reason"], d["done"]))' "$n"
    fi
    if [ "$code" -ne 0 ]; then
      sed 's/^/     /' "$work/wakeup.err" >&2
      echo "demo: wakeup exited $code" >&2
      exit "$code"
    fi
    if printf '%s' "$out" | grep -q '"action":"finish-finalization"'; then finished=1; break; fi
    sleep 1
  done
  [ -n "$finished" ] || { echo "demo: the loop did not finish within 120 wakeups" >&2; exit 1; }
fi

# finish-finalization kept the fresh merge gates it read in the run's
# checkpoint (PROTOCOL §7 merge_gate_report); the loop itself never merges.
echo "   the merge-gate report (read fresh when the loop finished; merging is yours):"
python3 -c 'import glob,json,os,sys
found=False
for f in sorted(glob.glob(os.path.join(sys.argv[1], "runs", "*", "checkpoint.json"))):
    c=json.load(open(f))
    r=c.get("merge_gate_report")
    if not r: continue
    found=True
    print("     %s" % c.get("automation_key",""))
    print("     finalized at %s, gates read at %s" % (c.get("finalized_at"), r["read_at"]))
    for k in ("approvals","branch_protection","checks","mergeability"):
        print("       %-18s %s" % (k, r["gates"][k]))
sys.exit(0 if found else 1)' "$GH_PRLOOP_STATE_DIR" || { echo "demo: no merge-gate report in the run" >&2; exit 1; }
