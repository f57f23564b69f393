#!/bin/sh
# centrality_err.sh - `make bench` section: the error of centrality's
# estimates at the default settings against exact values, on Cora, Pubmed
# and a 10^5-node DCBM graph, with their times (bench/centrality_err.c).
# Markdown on stdout, progress on stderr, raw TSV in OUTDIR.
#
#   sh bench/centrality_err.sh [OUTDIR]      (default /tmp/gnnpipe-centerr)
#
# Environment (defaults):
#   REPS=3          timed calls of the estimate (median; a first call of
#                   more than 60 s is the only one)
#   BIG_N=100000    nodes of the DCBM graph (mean degree 10, gamma 2.5, 5
#                   clusters, seed 1); 0 leaves it out.  Its exact
#                   betweenness takes about 17 minutes on 2 cores.
#   SUB_MAX=5000    exact subgraph centrality (dense eigendecomposition: 3 n^2
#                   doubles, n^3 time) only on graphs of at most this many nodes
#   KEEP_REF=0      1 keeps the exact values in OUTDIR between runs (they
#                   depend only on the graph) instead of computing them again
# Pubmed is built from the dataset mirror (make -C data pubmed.gs); without
# the mirror its rows are left out and a note says so.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/gnnpipe-centerr}
REPS=${REPS:-3}
BIG_N=${BIG_N:-100000}
SUB_MAX=${SUB_MAX:-5000}
KEEP_REF=${KEEP_REF:-0}
mkdir -p "$OUT"

[ -f libcommon.a ] && [ -x bin/dcbm-gen ] ||
	{ echo "centrality_err.sh: libcommon.a or bin/ missing; run make" >&2; exit 1; }
cc -std=c11 -fopenmp -O2 -g -Wall -Wextra -iquote common \
	-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -o "$OUT/centrality_err" \
	bench/centrality_err.c libcommon.a -lgsl -llapacke -lopenblas -larpack -lyaml -lz -lm

graphs="data/cora.gs"
notes=
if make -s -C data pubmed.gs >"$OUT/pubmed.log" 2>&1; then
	graphs="$graphs data/pubmed.gs"
else
	notes="Pubmed left out: \`make -C data pubmed.gs\` failed ($(tail -n 1 "$OUT/pubmed.log"))."
fi
if [ "$BIG_N" -gt 0 ]; then
	big="$OUT/dcbm-n$BIG_N.gs"
	[ -s "$big" ] || bin/dcbm-gen -q -s 1 --count 1 --nodes "$BIG_N" --mean-degree 10 \
		--gamma 2.5 --clusters 5 -o "$big"
	graphs="$graphs $big"
fi

: >"$OUT/errors.tsv"
: >"$OUT/load.txt"
for g in $graphs; do
	name=$(basename "$g" .gs)
	ref="$OUT/$name.ref"
	[ "$KEEP_REF" = 1 ] || rm -f "$ref"
	echo "centrality_err: $name" >&2
	printf '%s: before %s\n' "$name" "$(uptime | sed 's/.*load/load/')" >>"$OUT/load.txt"
	"$OUT/centrality_err" -r "$REPS" -S "$SUB_MAX" -R "$ref" "$g" >>"$OUT/errors.tsv"
	printf '%s: after  %s\n' "$name" "$(uptime | sed 's/.*load/load/')" >>"$OUT/load.txt"
done

echo "## Error of centrality's estimates (default settings)"
echo
# the defaults, as `centrality -h` prints them
defaults=$(bin/centrality -h | awk '
	/^ *--closeness-error X$/ { o = "--closeness-error"; next }
	o != "" { sub(/.*\[/, ""); sub(/\].*/, ""); printf "%s %s ", o, $0; o = ""; next }
	/^ +--(delta|eig-pairs|error|exact-max) / { v = $0; sub(/.*\[/, "", v); sub(/\].*/, "", v)
		printf "%s %s ", $1, v }')
echo "\`centrality\` with its defaults (\`${defaults}-s 0\`) against exact values;"
echo "$(nproc) threads."
echo
echo "| graph | quantity | stated bound | max error (bound's scale) | median rel. error | p95 | max | Spearman | exact 0 (estimate not 0) | sources drawn (searched) | estimate s | exact s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
awk -F '\t' -v sub_max="$SUB_MAX" '
	function pct(x) {
		if (x == "-")
			return "-"
		return 100 * x >= 100 ? sprintf("%.0f%%", 100 * x) : sprintf("%.3g%%", 100 * x)
	}
	{
		g = sprintf("%s (n %d, m %d)", $1, $2, $3)
		if ($10 == "additive")
			b = sprintf("%.3g additive", $9)
		else
			b = sprintf("%s relative", pct($9))
		worst = $10 == "additive" ? ($11 == "-" ? "-" : sprintf("%.3g", $11)) : pct($11)
		ex = $6
		if ($11 == "-")
			ex = sprintf("infeasible: dense n^3, n > %d", sub_max)
		z = $16 == "-" ? "-" : sprintf("%d (%d)", $16, $17)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %d (%d) | %.2f | %s |\n",
			g, $4, b, worst, pct($12), pct($13), pct($14), $15, z, $8, $7, $5, ex
	}' "$OUT/errors.tsv"
echo
echo "Stated bound: what the estimate says of itself (the \`*_bound\` attributes),"
echo "with probability 0.9 for betweenness and closeness, deterministic for"
echo "subgraph centrality; 0 where every node was computed exactly. Max error: the"
echo "largest error measured on the bound's scale (absolute on normalised"
echo "betweenness, relative for the others). Relative errors are over the nodes"
echo "whose exact value is not 0; those with an exact 0 are counted apart, with"
echo "how many of them got a non-zero estimate. Spearman: rank correlation over"
echo "all nodes (ties at their mean rank). Estimate s: one call computing all four"
echo "centralities (median of $REPS, or one call past 60 s); exact s: exact"
echo "betweenness and closeness (one call), or dense subgraph centrality."
[ -z "$notes" ] || { echo; echo "$notes"; }
echo
echo "Load averages (1, 5, 15 min):"
echo
sed 's/^/    /' "$OUT/load.txt"
