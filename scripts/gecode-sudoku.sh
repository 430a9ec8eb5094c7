#!/usr/bin/env bash
# Solves the first N puzzles of a puzzle file (one per line, digits or 0
# for a blank, space-separated, as sudoku/sets/36x36) with Gecode through
# MiniZinc: a constraint solver without learning, as a peer to the
# progression search. The model is the plain one (all-different, domain
# consistent, on rows, columns and boxes); DUAL=1 adds the channelled dual
# views (for each row and each column, where each digit goes, all-different
# per digit), which find X-wings and swordfish. Search: dom/wdeg,
# smallest value first, Luby restarts (scale 100). Needs minizinc with
# Gecode (Debian: apt-get install minizinc).
#
#   scripts/gecode-sudoku.sh sudoku/sets/36x36/given40.txt 5 20
#
# prints, per puzzle, solved or unknown within TIMEOUT seconds, with
# Gecode's failures and solve time.
set -euo pipefail
file=$1
n=${2:-5}
timeout=${3:-20}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/sudoku.mzn" <<'MZN'
include "alldifferent.mzn";
include "inverse.mzn";
int: B; int: N = B*B; set of int: R = 1..N;
array[R,R] of 0..N: g;
int: dual;
array[R,R] of var R: x;
constraint forall(r,c in R where g[r,c]>0)(x[r,c]=g[r,c]);
constraint forall(r in R)(alldifferent([x[r,c]|c in R]) :: domain);
constraint forall(c in R)(alldifferent([x[r,c]|r in R]) :: domain);
constraint forall(br,bc in 0..B-1)(alldifferent([x[br*B+i,bc*B+j]|i,j in 1..B]) :: domain);
array[R,R] of var R: colOf; % colOf[r,v]: the column of digit v in row r
array[R,R] of var R: rowOf; % rowOf[c,v]: the row of digit v in column c
constraint if dual=1 then
  forall(r in R)(inverse([x[r,c]|c in R],[colOf[r,v]|v in R]) :: domain) /\
  forall(c in R)(inverse([x[r,c]|r in R],[rowOf[c,v]|v in R]) :: domain) /\
  forall(v in R)(alldifferent([colOf[r,v]|r in R]) :: domain) /\
  forall(v in R)(alldifferent([rowOf[c,v]|c in R]) :: domain)
 else forall(r,v in R)(colOf[r,v]=1 /\ rowOf[r,v]=1) endif;
solve :: seq_search([int_search(x, dom_w_deg, indomain_min),
  int_search(array1d(colOf)++array1d(rowOf), input_order, indomain_min)])
  :: restart_luby(100) satisfy;
output ["solved"];
MZN
i=0
grep -v '^#' "$file" | head -n "$n" | while read -r line; do
	i=$((i + 1))
	awk -v dual="${DUAL:-0}" '{
		n = NF; b = int(sqrt(n) + 0.5); s = int(sqrt(b) + 0.5)
		printf "B=%d;\ndual=%d;\ng=[", s, dual
		for (k = 1; k <= n; k++) printf "%s%s", ((k - 1) % b == 0 ? "|" : ","), $k
		print "|];"
	}' <<<"$line" >"$dir/p.dzn"
	out=$(minizinc --solver gecode -t $((timeout * 1000)) "$dir/sudoku.mzn" "$dir/p.dzn" -s 2>/dev/null || true)
	status=unknown
	grep -q '^solved' <<<"$out" && status=solved
	echo "puzzle $i: $status, $(grep -o 'failures=[0-9]*' <<<"$out" | head -1), $(grep -o 'solveTime=[0-9.]*' <<<"$out" | head -1)"
done
