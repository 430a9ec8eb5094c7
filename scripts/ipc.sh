#!/usr/bin/env bash
# Regenerates the IPC 2020 tables of docs/results.md: grounding, progression
# search and the SAT engine over every problem of ../shared/data/ipc2020,
# each problem in its own process with a 60 s limit (make ipc). Takes
# hours; JOBS=2 runs two problems at a time. The SAT engine runs on the
# total-order problems only (it linearises partial orders, which loses
# completeness). Each problem's row is written to results/ipc-*.csv as it
# finishes; RESUME=1 continues an interrupted run from those rows.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/htnsat}
OUT=results
JOBS=${JOBS:-2}
mkdir -p "$OUT"
# commit: what a binary was built from, recorded beside it (BIN.commit)
# when it was built, since a long run outlives later commits
commit() { git describe --always --dirty --abbrev=7 2>/dev/null || echo unknown; }
if [ ! -x "$BIN" ]; then
	case $BIN in
	*cadical*) go build -tags cadical -o "$BIN" ./cmd/htnsat ;; # the IPC 2023 stages' BIN
	*) CGO_ENABLED=0 go build -o "$BIN" ./cmd/htnsat ;;
	esac
	commit >"$BIN.commit"
fi
# the run uses a copy of the binary: a build during the hours of a run
# (make test rebuilds bin/htnsat) must not change what it measures
snap=$(mktemp -d)
trap 'rm -rf "$snap"' EXIT
cp "$BIN" "$snap/htnsat"
[ -f "$BIN.commit" ] && cp "$BIN.commit" "$snap/htnsat.commit"
BIN=$snap/htnsat

# machine_of NAME: the machine NAME's table was measured on
machine_of() { cat "$OUT/$1.machine" 2>/dev/null || echo "a machine not recorded"; }

# run NAME [BIN=binary] ARGS...: one stage with bin/htnsat or the binary given
run() {
	local name=$1
	shift
	local bin=$BIN
	case $1 in BIN=*) bin=${1#BIN=}; shift ;; esac
	echo "== $name: $(basename "$bin") ipc $*" >&2
	echo "$(basename "$bin") ipc $*" >"$OUT/$name.cmd"
	local resume=()
	[ "${RESUME:-0}" = 1 ] && resume=(--resume)
	"$bin" ipc "$@" "${resume[@]}" --jobs "$JOBS" --csv "$OUT/$name.csv" >"$OUT/$name.md.new"
	mv "$OUT/$name.md.new" "$OUT/$name.md"
	date -u +%Y-%m-%d >"$OUT/$name.date"
	scripts/machine.sh >"$OUT/$name.machine"
	echo "$JOBS" >"$OUT/$name.jobs"
	if [ -s "$bin.commit" ]; then
		cp "$bin.commit" "$OUT/$name.commit"
	else
		commit >"$OUT/$name.commit"
	fi
}

# STAGES selects what to run (default: all; "splice" only rewrites the doc
# from the tables in results/); the doc is rewritten after
# each stage from whatever tables exist, so a long run that is cut short
# still leaves the finished tables in place. optimize (not in the
# default list: it takes the whole 60 s on every problem it does not prove
# optimal) runs progression with --optimize on the total-order problems,
# scoring its last plans against its first ones; optimize-sample does the
# same on every fourth problem of each domain (about an hour), and
# optimize-po-sample on every fourth partial-order problem;
# optimize-peers on the first four problems of each domain at 20 s, scored
# against pandaPI's plan lengths of results/peers (a quarter of an hour). sat-cadical runs the SAT
# engine with CaDiCaL linked (bin/htnsat-cadical, built here from the
# tree; needs libcadical-dev). too-large (minutes) plans the problems
# whose full grounding the ground stage refused, with the default path of
# progression, which grounds them on demand (the lazy engine). auto (not in
# the default list; hours) runs plan's default engine on the total-order
# problems: both engines side by side, and grounding on demand beside the
# grounder; auto-sample does so on every fourth problem of each domain.
# The IPC 2023 stages (results/IPC2023.md, each problem pinned to one CPU
# as the competition ran it; BIN=bin/htnsat-cadical): ipc2023-auto (plan's
# default engine), ipc2023-progression, ipc2023-sat-subset (the SAT engine
# where progression took over 15 s: what chose OneCoreShare),
# ipc2023-auto-2cores (auto on both CPUs where it took over 15 s on one,
# among every eighth problem of each domain);
# splice2023 only rewrites their doc section.
STAGES=${STAGES:-"ground pandapi progression sat sat-cadical"}
SHARED=${SHARED:-../shared}

# either: the problems progression or a SAT run solved, from their rows;
# built from the tree,
# since the measuring binary may predate --either
either() {
	local files=()
	for name in ipc-progression ipc-sat ipc-sat-cadical; do
		[ -s "$OUT/$name.csv" ] && files+=(--either "$OUT/$name.csv")
	done
	[ -s "$OUT/ipc-progression.csv" ] && [ ${#files[@]} -ge 4 ] || return 0
	echo
	echo "#### Either engine (the problems progression or a SAT run above solved; \`--engine auto\` runs both side by side, and grounds on demand beside the grounder: stage auto)"
	echo
	echo "\`htnsat ipc ${files[*]}\`"
	echo
	go run ./cmd/htnsat ipc "${files[@]}"
}

splice() {
	{
		echo "<!-- ipc:start (written by scripts/ipc.sh; do not edit) -->"
		echo "60 s and 8 GiB per problem; each table names the machine it was measured on."
		for name in ipc-ground ipc-progression ipc-too-large ipc-auto ipc-auto-sample ipc-sat ipc-sat-cadical ipc-optimize ipc-optimize-sample ipc-optimize-po-sample ipc-optimize-peers; do
			[ -s "$OUT/$name.md" ] || continue
			echo
			case $name in
			ipc-ground) echo "#### Grounding" ;;
			ipc-progression) echo "#### Progression search (plans verified)" ;;
			ipc-auto) echo "#### The default engine (auto: progression and SAT side by side, grounding on demand beside the grounder), total-order problems (plans verified)" ;;
			ipc-auto-sample) echo "#### The default engine (auto), every fourth total-order problem of each domain (plans verified)" ;;
			ipc-too-large) echo "#### Grounding on demand: the problems whose full grounding is refused (too large), planned by progression, which turns to the lazy engine for them (plans verified)" ;;
			ipc-sat) echo "#### SAT engine, gophersat (pure Go, the formula grown layer by layer, solved afresh at each depth), total-order problems (plans verified)" ;;
			ipc-sat-cadical) echo "#### SAT engine, CaDiCaL linked (incremental), total-order problems (plans verified)" ;;
			ipc-optimize) echo "#### Better plans: progression with --optimize, total-order problems (each plan verified; quality: the best cost of the two columns ÷ the cost, summed)" ;;
			ipc-optimize-po-sample) echo "#### Better plans: progression with --optimize, every fourth partial-order problem of each domain (each plan verified; quality: the best cost of the two columns ÷ the cost, summed)" ;;
			ipc-optimize-peers) echo "#### Better plans against pandaPI: the first four total-order problems of each domain, 20 s each; the quality table compares the eight problems whose pandaPI plan lengths are recorded (results/peers)" ;;
			ipc-optimize-sample) echo "#### Better plans: progression with --optimize, every fourth total-order problem of each domain (each plan verified; quality: the best cost of the two columns ÷ the cost, summed)" ;;
			esac
			echo
			at=""
			[ -s "$OUT/$name.commit" ] && at=" with commit $(cat "$OUT/$name.commit")"
			jobs=$(cat "$OUT/$name.jobs" 2>/dev/null || echo 2)
			each="$jobs problems at a time"
			[ "$jobs" = 1 ] && each="one problem at a time"
			echo "\`$(cat "$OUT/$name.cmd")\` (measured $(cat "$OUT/$name.date")$at on $(machine_of "$name"), $each)"
			echo
			cat "$OUT/$name.md"
		done
		either
		echo "<!-- ipc:end -->"
	} >"$OUT/IPC.md"
	scripts/splice.sh ipc "$OUT/IPC.md"
	scripts/figures.sh
}

# splice2023: the IPC 2023 tables (results/IPC2023.md): each run's table,
# the shares of one core auto could give progression (from progression's
# run and the SAT engine's on the problems progression took over 15 s on),
# and the IPC scores of the runs over the whole set side by side, beside
# the published entrants
splice2023() {
	local runs=()
	{
		echo "<!-- ipc2023:start (written by scripts/ipc.sh; do not edit) -->"
		echo "60 s and 8 GiB a problem; each table names the machine it was measured on and how its problems shared the CPUs."
		for name in ipc2023-auto ipc2023-auto-2cores ipc2023-progression ipc2023-sat-subset; do
			[ -s "$OUT/$name.md" ] || continue
			case $name in ipc2023-auto | ipc2023-progression) runs+=(--scores "$OUT/$name.csv") ;; esac
			echo
			case $name in
			ipc2023-auto) echo "#### The default engine (auto) on one core: progression, then the SAT engine (plans verified)" ;;
			ipc2023-auto-2cores) echo "#### The default engine on two cores (progression and the SAT engine side by side), on those it took over 15 s on one core among every eighth problem of each domain (plans verified)" ;;
			ipc2023-progression) echo "#### Progression search alone, one core (plans verified)" ;;
			ipc2023-sat-subset) echo "#### The SAT engine (CaDiCaL linked) alone, one core, on the problems progression took over 15 s on (plans verified)" ;;
			esac
			echo
			at=""
			[ -s "$OUT/$name.commit" ] && at=" with commit $(cat "$OUT/$name.commit")"
			jobs=$(cat "$OUT/$name.jobs" 2>/dev/null || echo 2)
			how="$jobs problems at a time, each on a CPU of its own"
			[ "$jobs" = 1 ] && how="one problem at a time, on a CPU of its own"
			[ "$name" = ipc2023-auto-2cores ] && how="one problem at a time, on both CPUs"
			echo "\`$(cat "$OUT/$name.cmd")\` (measured $(cat "$OUT/$name.date")$at on $(machine_of "$name"), $how)"
			echo
			# the run's own table; the scores of all runs follow together
			sed '/^total-order, coverage/,$d' "$OUT/$name.md"
		done
		if [ -s "$OUT/ipc2023-auto.csv" ] && [ -s "$OUT/ipc2023-auto-2cores.csv" ]; then
			echo
			echo "#### One core against two, on that sample"
			echo
			echo "\`htnsat ipc --either results/ipc2023-auto.csv --either results/ipc2023-auto-2cores.csv\`"
			echo
			"$BIN" ipc --either "$OUT/ipc2023-auto.csv" --either "$OUT/ipc2023-auto-2cores.csv"
		fi
		if [ -s "$OUT/ipc2023-progression.csv" ] && [ -s "$OUT/ipc2023-sat-subset.csv" ]; then
			echo
			echo "#### One core: the share of the time progression gets before the SAT engine"
			echo
			echo "The problems auto on one core would solve, from the two tables above, for each share of the time after grounding (and, in total order, after grounding on demand's first turn) that progression searches before the SAT engine takes the rest (\`OneCoreShare\` in internal/pipeline is $(sed -n 's/^const OneCoreShare = //p' internal/pipeline/pipeline.go)):"
			echo "\`scripts/one-core.py share results/ipc2023-progression.csv results/ipc2023-sat-subset.csv\`"
			echo
			python3 scripts/one-core.py share "$OUT/ipc2023-progression.csv" "$OUT/ipc2023-sat-subset.csv"
		fi
		if [ ${#runs[@]} -gt 0 ]; then
			echo
			echo "#### The IPC scores of these runs, beside the 2023 entrants"
			echo
			echo "\`htnsat ipc ${runs[*]} --timeout 60s --published ../shared/data/ipc2023/results\`"
			"$BIN" ipc "${runs[@]}" --timeout 60s --published "$SHARED/data/ipc2023/results"
		fi
		echo "<!-- ipc2023:end -->"
	} >"$OUT/IPC2023.md"
	scripts/splice.sh ipc2023 "$OUT/IPC2023.md"
}

for stage in $STAGES; do
	case $stage in
	ground) run ipc-ground --stage ground ;;
	progression) run ipc-progression --stage plan --engine progression ;;
	sat) run ipc-sat --stage plan --engine sat --filter total-order ;;
	auto) run ipc-auto --stage plan --engine auto --filter total-order ;;
	auto-sample) run ipc-auto-sample --stage plan --engine auto --filter total-order --every 4 ;;
	too-large) run ipc-too-large --stage plan --engine progression --from "$OUT/ipc-ground.csv" --status too-large ;;
	optimize) run ipc-optimize --stage plan --engine progression --optimize --filter total-order ;;
	# IPC 2023, as the competition ran it: each problem on one CPU of its
	# own (--pin; JOBS at most the CPUs), 60 s, 8 GiB
	ipc2023-auto)
		run ipc2023-auto "$SHARED/data/ipc2023" --stage plan --engine auto --pin
		splice2023
		continue
		;;
	ipc2023-progression)
		run ipc2023-progression "$SHARED/data/ipc2023" --stage plan --engine progression --pin
		splice2023
		continue
		;;
	# auto as it runs on a machine of two cores, one problem at a time, on
	# the problems it took over 15 s on one core among every eighth
	# problem of each domain (EVERY): below 15 s, two cores have nothing to
	# gain (progression gets a core of its own either way)
	ipc2023-auto-2cores)
		JOBS=1 run ipc2023-auto-2cores "$SHARED/data/ipc2023" --stage plan --engine auto --every "${EVERY:-8}" --from "$OUT/ipc2023-auto.csv" --over 15s
		splice2023
		continue
		;;
	# the SAT engine (BIN=bin/htnsat-cadical) where progression took over
	# 15 s: what auto on one core can gain from it (scripts/one-core.py share)
	ipc2023-sat-subset)
		run ipc2023-sat-subset "$SHARED/data/ipc2023" --stage plan --engine sat --pin --from "$OUT/ipc2023-progression.csv" --over 15s
		splice2023
		continue
		;;
	splice2023)
		splice2023
		continue
		;;
	optimize-sample) run ipc-optimize-sample --stage plan --engine progression --optimize --filter total-order --every 4 ;;
	optimize-po-sample) run ipc-optimize-po-sample --stage plan --engine progression --optimize --filter partial-order --every 4 ;;
	optimize-peers) run ipc-optimize-peers --stage plan --engine progression --optimize --filter total-order --first 4 --timeout 20s --quality results/peers/pandapi-greedy-p04.csv --quality results/peers/pandapi-astar-p04.csv ;;
	sat-cadical)
		go build -tags cadical -o bin/htnsat-cadical ./cmd/htnsat
		commit >bin/htnsat-cadical.commit
		run ipc-sat-cadical BIN=bin/htnsat-cadical --stage plan --engine sat --filter total-order
		;;
	splice)
		# only rewrite the doc from the tables there are
		;;
	pandapi)
		# one problem at a time, as pandaPI's figures were taken
		echo "== pandapi: htnsat ipc --stage ground --pandapi" >&2
		"$BIN" ipc --stage ground --pandapi "$SHARED/data/ipc2020/pandapi-ground.csv" --jobs 1 --csv "$OUT/pandapi.csv" >"$OUT/pandapi.md.new"
		mv "$OUT/pandapi.md.new" "$OUT/pandapi.md"
		{
			echo "<!-- pandapi:start (written by scripts/ipc.sh; do not edit) -->"
			echo "\`htnsat ipc --stage ground --pandapi ../shared/data/ipc2020/pandapi-ground.csv --jobs 1\` (measured $(date -u +%Y-%m-%d), $(nproc) cores)"
			echo
			cat "$OUT/pandapi.md"
			echo "<!-- pandapi:end -->"
		} >"$OUT/PANDAPI.md"
		scripts/splice.sh pandapi "$OUT/PANDAPI.md"
		continue
		;;
	*) echo "unknown stage $stage" >&2; exit 2 ;;
	esac
	splice
done
echo "results/IPC.md and docs/results.md updated" >&2
