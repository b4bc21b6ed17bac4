#!/bin/sh
# codex-exec.sh — a prloop fixer (fixer contract v1) that asks the Codex CLI
# to fix a remediation round's findings.
#
#   gh-prloop start --fixer '/abs/path/scripts/fixers/codex-exec.sh [CODEX]' …
#
# prloop runs the fixer in its sandbox with the checkout as the working
# directory and appends the contract's input file (a JSON array of the
# round's actionable Codex threads: thread_id, path, line, start_line,
# priority, title, body) as the LAST argument. CODEX is the codex
# executable (default: `codex` on the sandbox's PATH, which is this
# script's directory, /usr/local/bin, /usr/bin and /bin — pass an absolute
# path when it lives elsewhere).
#
# The sandbox gives the fixer a minimal environment (private HOME, no
# tokens): Codex's login must be reachable through CODEX_HOME, which the
# caller passes with the fixer sandbox's Env/AllowWrites. Whatever Codex
# changes outside the approved paths aborts the round with nothing
# committed, so the prompt asks it to stay inside them.
set -eu

case $# in
1) codex=codex; input=$1 ;;
2) codex=$1; input=$2 ;;
*) echo "usage: codex-exec.sh [CODEX] INPUT.json" >&2; exit 2 ;;
esac
if [ ! -r "$input" ]; then
	echo "codex-exec.sh: cannot read the input file $input" >&2
	exit 2
fi

prompt='Fix the code review findings in the JSON array on stdin (one object per review thread: path, line, start_line, priority, title, body). Edit only the files named by "path". Do not run git commands that change the index, commits, branches or remotes; prloop commits and pushes the change itself.'

# stdin is the input file, so codex exec never waits on an open pipe.
exec "$codex" exec --sandbox workspace-write --skip-git-repo-check --ephemeral "$prompt" <"$input"
