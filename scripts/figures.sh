#!/usr/bin/env bash
# Writes the summaries that README.md and the docs include, from the tables
# in results/ (make results, make ipc), and splices each where its markers
# are: results/SUMMARY.md (README's "Results in one table"),
# results/BEYOND.md (docs/results.md, beyond 25x25 and the killer set) and
# results/QUALITY.md (docs/results.md, the better plans' scores). A figure
# is written once, in a table of results/, and copied from there; the test
# TestSplices (cmd/htnsat) fails when a page holds another copy than the
# file's. Usage: scripts/figures.sh (make figures; seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=results
HTNSAT=${HTNSAT:-"go run ./cmd/htnsat"}

# cell FILE ENGINE: the README cell of an engine's row of a compare
# table: "all" or solved/total, the median and the max.
cell() {
	awk -F' *\\| *' -v eng="$2" '$3 == eng {
		split($4, s, "/")
		solved = (s[1] == s[2]) ? "all" : $4
		if (s[1] == 0) { print "none of " s[2]; exit }
		printf "%s, median %s, max %s\n", solved, $5, $7
		exit
	}' "$1"
}

# stamp NAME: where a table of results/ comes from.
stamp() {
	echo "\`$(cat "$OUT/$1.cmd")\`, $(cat "$OUT/$1.date") at $(cat "$OUT/$1.commit")"
}

# total FILE COLUMN: the "**all" row's COLUMN-th cell (total order first).
total() {
	awk -F' *\\| *' -v col="$2" -v track="$3" '$2 == track && index($3, "**all") == 1 { print $col; exit }' "$1"
}

# published FILE winner|best: from a table of the competition's, the
# winner's total, or the sum over the domains of the best entrant's
published() {
	awk -F, -v what="$2" 'NR > 1 && NF > 2 {
		if ($2 + 0 > win + 0) win = $2 + 0
		for (i = 3; i <= NF; i++) if ($i + 0 > best[i] + 0) best[i] = $i + 0
		n = NF
	} END {
		if (what == "winner") { print win; exit }
		for (i = 3; i <= n; i++) s += best[i]
		print s
	}' "$1"
}

sudoku_rows() {
	local name label
	while IFS='|' read -r name label; do
		[ -s "$OUT/$name.md" ] || continue
		printf '| %s | %s | %s | %s |\n' "$label" "$(cell "$OUT/$name.md" progression)" "$(cell "$OUT/$name.md" htn-sat)" "$(cell "$OUT/$name.md" direct-sat)"
	done <<'EOF'
top1465|9×9 magictour top1465 (1,465)
royle2000|9×9 Royle's 17-clue, first 2,000
16x16|16×16 (110)
25x25|25×25 (10)
36x36-given40|36×36, 40 % given (10), 20 s each
36x36-empty|36×36 empty grid, 60 s
49x49-given60|49×49, 60 % given (3), 20 s each
49x49-given50|49×49, 50 % given (first 3), 20 s each
killer|9×9 killer, no givens (10), 20 s each
EOF
}

# machine NAME: the machine NAME's table was measured on (scripts/machine.sh
# wrote it then)
machine() { cat "$OUT/$1.machine" 2>/dev/null || echo "a machine not recorded"; }

runs=()
for name in ipc-optimize ipc-progression ipc-sat ipc-sat-cadical; do
	[ -s "$OUT/$name.csv" ] && runs+=(--quality "$OUT/$name.csv")
done
if [ ${#runs[@]} -eq 8 ]; then
	{
		echo "<!-- quality:start (written by scripts/figures.sh from results/; do not edit) -->"
		echo "\`htnsat ipc ${runs[*]}\` (total order; every plan any of these runs found is the reference; the whole table: the same command)"
		echo
		echo "| run | solved | quality | proven optimal |"
		echo "|---|---|---|---|"
		$HTNSAT ipc "${runs[@]}" | awk -F' *\\| *' 'index($3, "**all") == 1 {
			n = split("progression `--optimize`|its first plans|progression (first plans)|SAT engine, gophersat|SAT engine, CaDiCaL", name, "|")
			for (i = 1; i <= n; i++) { c = 5 + (i - 1) * 4; printf "| %s | %s | %s | %s |\n", name[i], $c, $(c + 1), $(c + 2) }
		}'
		echo "<!-- quality:end -->"
	} >"$OUT/QUALITY.md"
fi

{
	echo "<!-- summary:start (written by scripts/figures.sh from results/; do not edit) -->"
	echo "Per puzzle, the whole pipeline (writing and parsing the HDDL problem,"
	echo "grounding, search or encode/solve/decode, verifying plan and grid), one"
	echo "puzzle at a time, in the default build (gophersat). Each row is a table"
	echo "of [docs/results.md](docs/results.md) (\`make results\`), with its"
	echo "command, date and commit; the 9×9 to 25×25 rows: $(stamp top1465 | sed 's/`[^`]*`, //')."
	echo
	echo "| puzzles | progression | htn-sat (gophersat) | direct-sat |"
	echo "|---|---|---|---|"
	sudoku_rows
	if [ -s "$OUT/ipc-progression.md" ]; then
		echo
		prog_to=$(total "$OUT/ipc-progression.md" 4 total-order)
		prog_po=$(total "$OUT/ipc-progression.md" 4 partial-order)
		echo "On IPC 2020 (\`make ipc\`, 60 s and 8 GiB a problem; [tables](docs/results.md#results-ipc-2020)):"
		echo "progression solves $prog_to total-order and $prog_po partial-order problems"
		if [ -s "$OUT/ipc-sat.md" ] && [ -s "$OUT/ipc-sat-cadical.md" ]; then
			echo "(measured at $(cat "$OUT/ipc-progression.commit")), the SAT engine $(total "$OUT/ipc-sat.md" 4 total-order) total-order ones with"
			echo "gophersat and $(total "$OUT/ipc-sat-cadical.md" 4 total-order) with CaDiCaL (at $(cat "$OUT/ipc-sat.commit") and $(cat "$OUT/ipc-sat-cadical.commit")),"
			echo "either engine $(awk -F' *\\| *' '$2 == "total-order" && index($3, "**all") == 1 { v = $(NF-1) } END { print v }' "$OUT/IPC.md")."
		else
			echo "(measured at $(cat "$OUT/ipc-progression.commit"))."
		fi
	fi
	if [ -s "$OUT/ipc2023-auto.md" ]; then
		echo "On IPC 2023 (\`STAGES=ipc2023-auto BIN=bin/htnsat-cadical scripts/ipc.sh\`, each problem on one CPU, 60 s and 8 GiB; [tables](docs/results.md#results-ipc-2023)):"
		echo "the default engine solves $(total "$OUT/ipc2023-auto.md" 4 total-order) total-order and $(total "$OUT/ipc2023-auto.md" 4 partial-order) partial-order problems"
		pub=${SHARED:-../shared}/data/ipc2023/results
		echo "(measured at $(cat "$OUT/ipc2023-auto.commit")); in the competition's published tables (1 CPU, 8 GB, 1800 s on"
		echo "its machines) the winners solved $(published "$pub/TO-TABLE-coverage.csv" winner) and $(published "$pub/PO-TABLE-coverage.csv" winner), the best entrant of each domain $(published "$pub/TO-TABLE-coverage.csv" best) and $(published "$pub/PO-TABLE-coverage.csv" best) in all."
	fi
	if [ -s "$OUT/QUALITY.md" ]; then
		echo "Better plans with \`--optimize\` (60 s each, total order):"
		awk -F' *\\| *' '$2 == "progression `--optimize`" { printf "%s solved, %s proven optimal, an IPC quality score of %s", $3, $5, $4 }
			$2 == "its first plans" { printf " against %s for its first plans", $4 }' "$OUT/QUALITY.md"
		echo " ([scores](docs/results.md#better-plans-scored))."
	fi
	echo "<!-- summary:end -->"
} >"$OUT/SUMMARY.md"

{
	echo "<!-- beyond:start (written by scripts/figures.sh from results/; do not edit) -->"
	for name in 36x36-given40 36x36-empty 49x49-given60 49x49-given50 killer; do
		[ -s "$OUT/$name.md" ] || continue
		case $name in
		36x36-given40) title="36×36, 40 % of the cells given (sudoku/sets/36x36/given40.txt), 20 s a puzzle and engine" ;;
		36x36-empty) title="An empty 36×36 grid, 60 s" ;;
		49x49-given60) title="49×49, 60 % given (sudoku/sets/49x49/given60.txt), 20 s" ;;
		49x49-given50) title="49×49, 50 % given, the first three of sudoku/sets/49x49/given50.txt, 20 s" ;;
		killer) title="Killer Sudokus: the ten of sudoku/sets/killer (no givens, one solution each), 20 s" ;;
		esac
		echo
		echo "#### $title"
		echo
		echo "$(stamp "$name"), $(machine "$name")"
		echo
		cat "$OUT/$name.md"
	done
	echo "<!-- beyond:end -->"
} >"$OUT/BEYOND.md"

scripts/splice.sh summary "$OUT/SUMMARY.md" README.md
scripts/splice.sh beyond "$OUT/BEYOND.md" docs/results.md
[ -s "$OUT/QUALITY.md" ] && scripts/splice.sh quality "$OUT/QUALITY.md" docs/results.md
echo "results/SUMMARY.md, BEYOND.md, QUALITY.md spliced into README.md and docs/results.md" >&2
