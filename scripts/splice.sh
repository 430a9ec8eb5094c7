#!/usr/bin/env bash
# Usage: scripts/splice.sh MARKER FILE [DOC]
# Replaces the block of DOC (default docs/results.md) between "<!--
# MARKER:start" and "<!-- MARKER:end -->" (markers included) by the
# contents of FILE, which must carry its own markers.
set -euo pipefail
marker=$1
file=$2
doc=${3:-docs/results.md}
grep -q "<!-- $marker:start" $doc || { echo "$doc has no $marker markers" >&2; exit 1; }
awk -v file="$file" -v start="<!-- $marker:start" -v end="<!-- $marker:end" '
	index($0, start) == 1 { while ((getline line < file) > 0) print line; skip = 1; next }
	index($0, end) == 1 { skip = 0; next }
	!skip { print }
' $doc >$doc.new && mv $doc.new $doc
