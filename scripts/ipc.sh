#!/usr/bin/env bash
# Regenerates the IPC 2020 tables of README.md: grounding, progression
# search and the SAT engine over every problem of ../shared/data/ipc2020,
# each problem in its own process with a 60 s limit (make ipc). Takes
# hours; JOBS=2 runs two problems at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=bin/htnsat
OUT=results
JOBS=${JOBS:-2}
mkdir -p "$OUT"
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/htnsat

run() {
	local name=$1
	shift
	echo "== $name: htnsat ipc $*" >&2
	echo "htnsat ipc $*" >"$OUT/$name.cmd"
	"$BIN" ipc "$@" --jobs "$JOBS" --csv "$OUT/$name.csv" >"$OUT/$name.md"
}

run ipc-ground --stage ground
run ipc-progression --stage plan --engine progression
run ipc-sat --stage plan --engine sat

{
	echo "<!-- ipc:start (written by scripts/ipc.sh; do not edit) -->"
	echo "Measured on $(date -u +%Y-%m-%d): $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'), $JOBS problems at a time, 60 s and 8 GiB per problem."
	echo
	for name in ipc-ground ipc-progression ipc-sat; do
		case $name in
		ipc-ground) echo "#### Grounding" ;;
		ipc-progression) echo "#### Progression search (plans verified)" ;;
		ipc-sat) echo "#### SAT engine, gophersat (plans verified; partial orders linearised)" ;;
		esac
		echo
		echo "\`$(cat "$OUT/$name.cmd")\`"
		echo
		cat "$OUT/$name.md"
		echo
	done
	echo "<!-- ipc:end -->"
} >"$OUT/IPC.md"

scripts/splice.sh ipc "$OUT/IPC.md"
echo "results/IPC.md and README.md updated" >&2
