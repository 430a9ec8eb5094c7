#!/usr/bin/env bash
# Regenerates results/ and the Sudoku tables of docs/results.md from
# "htnsat compare" over the standard puzzle sets of sudoku/sets. Usage:
# scripts/results.sh (make results). Takes a while: the HTN engines solve a
# few thousand puzzles.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=bin/htnsat
SUDOKU=sudoku/sets
OUT=results
mkdir -p "$OUT"
[ -x "$BIN" ] || CGO_ENABLED=0 go build -o "$BIN" ./cmd/htnsat

# run NAME ARGS...: one comparison, its table, CSV and plot. ONLY="NAME
# ..." re-runs those tables alone and keeps the others' files (each
# table's date is in its .date file).
run() {
	local name=$1
	shift
	if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then
		return
	fi
	date -u +%Y-%m-%d >"$OUT/$name.date"
	scripts/machine.sh >"$OUT/$name.machine"
	# the binary's commit (make build records it), not HEAD's: a long run
	# outlives later commits
	if [ -s "$BIN.commit" ]; then cp "$BIN.commit" "$OUT/$name.commit"; else git rev-parse --short HEAD >"$OUT/$name.commit" 2>/dev/null || true; fi
	echo "== $name: htnsat compare $*" >&2
	echo "htnsat compare $*" >"$OUT/$name.cmd"
	"$BIN" compare "$@" --csv "$OUT/$name.csv" --plot "$OUT/$name.svg" --markdown "$OUT/$name.md" >"$OUT/$name.txt"
}

run samples
run 4x4 -f "$SUDOKU/4x4/course-100.txt"
run 9x9-course -f "$SUDOKU/9x9/course-100.txt"
run top95 -f "$SUDOKU/9x9/top95.txt" -f "$SUDOKU/9x9/hardest.txt"
run top1465 -f "$SUDOKU/9x9/magictour-top1465.txt"
run royle2000 -f "$SUDOKU/9x9/royle-17-clue.txt" --limit 2000
run top1465-ordered -f "$SUDOKU/9x9/magictour-top1465.txt" --style ordered --engine progression
run royle2000-ordered -f "$SUDOKU/9x9/royle-17-clue.txt" --limit 2000 --style ordered --engine progression
run 16x16-ordered -f "$SUDOKU/16x16/hard-10.txt" -f "$SUDOKU/16x16/course-100.txt" --style ordered --engine progression
run 16x16 -f "$SUDOKU/16x16/hard-10.txt" -f "$SUDOKU/16x16/course-100.txt"
run 25x25 $(for f in "$SUDOKU"/25x25/*.txt; do echo -f "$f"; done) --timeout 120s

# One process per puzzle and engine on the paper's HDDL files (ordered
# network), as planners that read HDDL are run: start-up, parsing and
# grounding included, the first 20 puzzles of each set.
run process-top1465 -f "$SUDOKU/9x9/magictour-top1465.txt" --limit 20 --style ordered --process
run process-royle -f "$SUDOKU/9x9/royle-17-clue.txt" --limit 20 --style ordered --process
run process-hardest -f "$SUDOKU/9x9/hardest.txt" --style ordered --process

# Ablation: the hard puzzles of each size with one acceleration off at a
# time (the HTN engines only; matching, locked values, last conflicts, value order,
# restarts and conflict weights are progression's).
HARD="$(for f in "$SUDOKU"/25x25/*.txt; do echo -f "$f"; done) -f $SUDOKU/16x16/hard-10.txt -f $SUDOKU/9x9/top95.txt -f $SUDOKU/9x9/hardest.txt"
ABLATION="default no-groups no-matching no-locked no-value-branch no-last-conflict no-value-order no-fold no-conflicts no-restarts no-reach"
for a in $ABLATION; do
	flag=--$a
	[ "$a" = default ] && flag=
	engines=progression,htn-sat
	case $a in no-matching | no-locked | no-value-branch | no-last-conflict | no-value-order | no-conflicts | no-restarts | no-reach) engines=progression ;; esac
	# shellcheck disable=SC2086
	run "ablation-$a" $HARD --engine $engines $flag
done

# Beyond 25x25 and the variants: 20 s a puzzle and engine (60 s for the
# empty grid), the default build (gophersat); tabled apart (BEYOND.md).
KILLER="$(for f in "$SUDOKU"/killer/*.json; do echo -f "$f"; done)"
# shellcheck disable=SC2086
run killer $KILLER --timeout 20s
run 36x36-given40 -f "$SUDOKU/36x36/given40.txt" --timeout 20s
run 36x36-empty -f "$SUDOKU/36x36/empty.txt" --timeout 60s
run 49x49-given60 -f "$SUDOKU/49x49/given60.txt" --timeout 20s
run 49x49-given50 -f "$SUDOKU/49x49/given50.txt" --limit 3 --timeout 20s

machine() {
	echo "Measured on $(uname -sm), $(nproc --all) cores,"
	echo "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'),"
	echo "$(free -g 2>/dev/null | awk '/Mem:/ {print $2 " GiB"}') memory, $(go version | cut -d' ' -f3), one puzzle at a time,"
	echo "in-process gophersat for both SAT engines, time limit 60 s per puzzle and engine (120 s for 25x25)."
}

{
	echo "<!-- results:start (written by scripts/results.sh; do not edit) -->"
	machine
	echo
	for name in samples 4x4 9x9-course top95 top1465 royle2000 top1465-ordered royle2000-ordered 16x16-ordered 16x16 25x25 process-top1465 process-royle process-hardest; do
		[ -s "$OUT/$name.md" ] || continue
		case $name in
		samples) title="Embedded sample (make run): the paper's puzzle and puzzles of each size" ;;
		4x4) title="4x4: course-100 (100 puzzles)" ;;
		9x9-course) title="9x9: course-100 (100 puzzles)" ;;
		top95) title="9x9: Norvig's top95 and hardest (106 puzzles)" ;;
		top1465) title="9x9: magictour top1465 (1,465 hard puzzles)" ;;
		royle2000) title="9x9: the first 2,000 of Royle's 17-clue puzzles" ;;
		top1465-ordered) title="9x9: top1465 with the paper's ordered initial network (progression)" ;;
		royle2000-ordered) title="9x9: the first 2,000 of Royle's 17-clue puzzles, ordered network (progression)" ;;
		16x16-ordered) title="16x16: hard-10 and course-100, ordered network (progression)" ;;
		16x16) title="16x16: hard-10 and course-100 (110 puzzles)" ;;
		25x25) title="25x25: the 10 shared puzzles" ;;
		process-top1465) title="One process per run (the paper's files, ordered network): top1465, first 20 (peak: resident memory)" ;;
		process-royle) title="One process per run: Royle's 17-clue, first 20" ;;
		process-hardest) title="One process per run: Norvig's hardest (11)" ;;
		esac
		echo "#### $title"
		echo
		measured=""
		[ -s "$OUT/$name.date" ] && measured=" (measured $(cat "$OUT/$name.date")$([ -s "$OUT/$name.commit" ] && echo " with commit $(cat "$OUT/$name.commit")"))"
		echo "\`$(cat "$OUT/$name.cmd")\`$measured"
		echo
		cat "$OUT/$name.md"
		echo
		echo "![$name](../$OUT/$name.svg)"
		echo
	done
	echo "#### What each acceleration brings: the hard puzzles of each size with one switched off"
	echo
	echo "\`$(cat "$OUT/ablation-default.cmd") [--no-groups | --no-matching | --no-locked | --no-value-branch | --no-last-conflict | --no-value-order | --no-fold | --no-conflicts | --no-restarts | --no-reach]\`"
	echo
	head -n 2 "$OUT/ablation-default.md" | sed 's/^|/| configuration |/; 2s/^| configuration |/|---|/'
	for a in $ABLATION; do
		# a configuration never run (ONLY) has no table yet
		[ -s "$OUT/ablation-$a.md" ] || continue
		tail -n +3 "$OUT/ablation-$a.md" | sed "s/^|/| $a |/"
	done
	echo
	echo "<!-- results:end -->"
} >"$OUT/RESULTS.md"

scripts/splice.sh results "$OUT/RESULTS.md"
scripts/figures.sh
echo "results/RESULTS.md and docs/results.md updated" >&2
