#!/usr/bin/env bash
# make demo: the main job on embedded defaults — no GitHub account, no network.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=bin/gh-prloop

echo "== 1. The evaluator on the committed example documents (examples/)"
# Each document is evaluated by the binary; one python3 then summarizes
# every answer (one interpreter start, not one per file: that was most of
# this step's time).
ev=$(mktemp -d "${TMPDIR:-/tmp}/gh-prloop-demo-eval-XXXXXX")
trap 'rm -rf "$ev"' EXIT
n=0
for f in examples/initial/*.json examples/prompt/*.json examples/state/*.json; do
  [ -e "$f" ] || continue
  case "$f" in
    examples/initial/*) flag=--initial ;;
    examples/prompt/*)  flag=--prompt ;;
    *)                  flag=--state ;;
  esac
  n=$((n+1))
  set +e
  "$bin" evaluate "$flag" "$f" >"$ev/$n.out" 2>&1
  code=$?
  set -e
  printf '%s\t%s\t%s\n' "$f" "$code" "$ev/$n.out" >>"$ev/index"
done
[ -s "$ev/index" ] && python3 -c 'import json,sys
for line in open(sys.argv[1]):
    f, code, out = line.rstrip("\n").split("\t")
    try:
        d=json.load(open(out))
    except ValueError:
        s="unreadable answer: "+open(out).read()[:200].replace("\n"," ")
    else:
        if d.get("action"):
            s="action=%s reason=%s" % (d["action"], d.get("reason",""))
            if d.get("classification"): s+=" classification="+d["classification"]
        elif d.get("ok"):
            s="ok kind=%s %s" % (d["kind"], ("plan_hash="+d["plan_hash"]) if d.get("plan_hash") else ("automation_key="+d.get("automation_key","")))
        else:
            s="invalid: " + "; ".join("%s %s" % (e["path"], e["code"]) for e in d["errors"][:3])
    print("  %-58s exit=%d  %s" % (f, int(code), s))' "$ev/index"

echo
echo "== 2. The report console on a simulated pull request (ghsim in-process: no account, no network)"
# On a terminal the console is interactive: r refreshes, q quits, and after
# about 20 seconds the simulated author pushes a fix and asks Codex again.
# Without one (CI, a pipe, </dev/null) the report is printed once.
if [ -t 0 ] && [ -t 1 ]; then
  echo "   r refreshes, q quits; refresh after ~20s to watch Codex review the fix."
fi
"$bin" demo

echo
echo "== 3. Plan and approve: a seeded checkout, its remote served over HTTPS on 127.0.0.1, GitHub simulated"
# On a terminal the approval console opens: type (or paste) the plan hash to
# approve it, esc to cancel. Without one the plan and core's verdict on it
# are printed, and nothing is approved.
if [ -t 0 ] && [ -t 1 ]; then
  echo "   type the plan hash shown at the bottom, then enter; esc cancels."
fi
set +e
"$bin" demo plan
code=$?
set -e
# Cancelling the console (esc, exit 2) is the human's choice, not a failure.
[ "$code" -eq 0 ] || [ "$code" -eq 2 ] || exit "$code"

echo
echo "== 4. Execute: start --mode autonomous on a fresh seeded checkout, GitHub simulated, git over HTTPS on 127.0.0.1"
# The plan is validated, rebuilt and validated again just before the first
# side effect, then committed, pushed, opened ready for review, Codex is
# asked for a review and the loop's automation becomes ACTIVE. On a
# terminal the live operation list is shown; otherwise one line each.
"$bin" demo start

echo
if [ -t 0 ] && [ -t 1 ] && [ -z "${PRLOOP_DEMO_HEADLESS:-}" ]; then
  echo "== 5. The whole loop, approval-gated: gh-prloop sim (Codex finds, finds again, then 👍), start --fixer 'gh-prloop sim fix', the watch console until done"
else
  echo "== 5. The whole loop, autonomous: gh-prloop sim (Codex finds, finds again, then 👍), start --fixer 'gh-prloop sim fix', wakeup until done"
fi
# Real processes on a real checkout: each wakeup re-reads GitHub, runs the
# evaluator and does what it says — fix the findings (two rounds), then
# finish — and the loop ends by reporting the merge gates. On a terminal
# start opens the approval console, then becomes the loop's watch console,
# which drives the wakeups and asks for each plan's hash; otherwise nothing
# prompts and each wakeup prints one line.
bash scripts/demo_loop.sh "$bin"
