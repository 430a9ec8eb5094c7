#!/usr/bin/env bash
# Checks the IPC planner interface against pandaPI's verifier: for the
# first N problems (default 1) of every domain of an IPC set, the
# runscript of apptainer/htnsat.def, run natively with sh, and
# "htnsat plan DOMAIN PROBLEM PLANFILE" each write a plan, and
# pandaPIparser --verify must accept it. PANDAPI is the folder of the
# pandaPI binaries (built by ../shared/peers/build-pandapi.sh); SET the
# benchmark folder (default ../shared/data/ipc2023); TIMEOUT the limit of
# each run (default 10s). Prints one line a problem and a summary, and
# exits 1 when a plan is missing (not proven unsolvable) or refused.
#
#   PANDAPI=/work/peers/pandapi/bin scripts/pandapi-verify.sh
set -uo pipefail
cd "$(dirname "$0")/.."
PANDAPI=${PANDAPI:?PANDAPI: the folder holding pandaPIparser}
SET=${SET:-../shared/data/ipc2023}
N=${N:-1}
TIMEOUT=${TIMEOUT:-10s}
BIN=${BIN:-bin/htnsat}
[ -x "$BIN" ] || CGO_ENABLED=0 go build -o "$BIN" ./cmd/htnsat

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
cp "$BIN" "$work/bin/htnsat"
# the definition's runscript, as Apptainer would run it
sed -n '/^%runscript/,/^%/p' apptainer/htnsat.def | sed '1d;$d' >"$work/runscript"

ok=0 bad=0 unsolvable=0
# the problems and their domains as htnsat ipc pairs them (built from the
# tree: BIN may predate --list)
go run ./cmd/htnsat ipc "$SET" --list --first "$N" >"$work/list" || exit 1
while IFS=$'\t' read -r track domain d p <&3; do
	name="$track/$domain/$(basename "$p")"
	for how in runscript plan; do
		out="$work/plan.$how"
		rm -f "$out"
		if [ $how = runscript ]; then
			PATH="$work/bin:$PATH" HTNSAT_TIMEOUT=$TIMEOUT sh "$work/runscript" "$d" "$p" "$out" >"$work/stdout" 2>"$work/err"
		else
			"$work/bin/htnsat" plan -q --timeout "$TIMEOUT" "$d" "$p" "$out" >"$work/stdout" 2>"$work/err"
		fi
		if [ ! -s "$out" ] && grep -q 'unsolvable' "$work/err"; then
			echo "$name ($how): no plan, proven unsolvable"
			unsolvable=$((unsolvable + 1))
			continue
		fi
		if [ ! -s "$out" ]; then
			echo "$name ($how): no plan: $(tail -n 1 "$work/err")"
			bad=$((bad + 1))
			continue
		fi
		if "$PANDAPI/pandaPIparser" --verify "$d" "$p" "$out" >"$work/v" 2>&1 && grep -q 'Plan verification result: .*true' "$work/v"; then
			echo "$name ($how): pandaPI's verifier accepts the plan"
			ok=$((ok + 1))
		else
			echo "$name ($how): pandaPI's verifier refuses the plan: $(grep -a 'false' "$work/v" | head -n 1)"
			bad=$((bad + 1))
		fi
	done
done 3<"$work/list"
echo "accepted $ok, proven unsolvable $unsolvable, missing or refused $bad"
[ "$bad" -eq 0 ]
