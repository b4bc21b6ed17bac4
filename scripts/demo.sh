#!/usr/bin/env bash
# make demo: the main job on embedded defaults — no GitHub account, no network.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=bin/gh-prloop

echo "== 1. The evaluator on the committed example documents (examples/)"
for f in examples/initial/*.json examples/prompt/*.json examples/state/*.json; do
  [ -e "$f" ] || continue
  case "$f" in
    examples/initial/*) flag=--initial ;;
    examples/prompt/*)  flag=--prompt ;;
    *)                  flag=--state ;;
  esac
  set +e
  out=$("$bin" evaluate "$flag" "$f" 2>&1)
  code=$?
  set -e
  summary=$(printf '%s' "$out" | python3 -c 'import json,sys
d=json.load(sys.stdin)
if d.get("action"):
    s="action=%s reason=%s" % (d["action"], d.get("reason",""))
    if d.get("classification"): s+=" classification="+d["classification"]
elif d.get("ok"):
    s="ok kind=%s %s" % (d["kind"], ("plan_hash="+d["plan_hash"]) if d.get("plan_hash") else ("automation_key="+d.get("automation_key","")))
else:
    s="invalid: " + "; ".join("%s %s" % (e["path"], e["code"]) for e in d["errors"][:3])
print(s)')
  printf '  %-58s exit=%d  %s\n' "$f" "$code" "$summary"
done
