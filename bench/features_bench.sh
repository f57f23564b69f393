#!/bin/sh
# features_bench.sh - time common/nodefeat.c and common/centrality.c against
# python-igraph on the peer benchmark's graphs, and the full labelling of
# DCBM graphs against LAPACK dsyevd alone.  Not part of `make test`.
#
#   sh bench/features_bench.sh [OUTDIR]        (default /tmp/gnnpipe-featbench)
#
# Environment: LABEL_COUNT (DCBM graphs for the labelling run, default 1024;
# 0 skips it), REPS (default 5), PEER_BENCH (the peer harness directory that
# holds gen_graphs.py, default ../shared/bench beside the repository).
# Needs libcommon.a (run `make` first) and /usr/bin/python3 with numpy,
# networkx and python-igraph.  The machine should be otherwise idle: the
# script prints the load average before each part.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/gnnpipe-featbench}
LABEL_COUNT=${LABEL_COUNT:-1024}
REPS=${REPS:-5}
PY=/usr/bin/python3
mkdir -p "$OUT"

cc -std=c11 -fopenmp -O2 -g -Wall -Wextra -iquote common \
	-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -o "$OUT/features_bench" \
	bench/features_bench.c libcommon.a -lgsl -llapacke -lopenblas -larpack -lyaml -lz -lm

if [ ! -f "$OUT/graphs/dcbm_n2000.txt" ] ||
   { [ "$LABEL_COUNT" -gt 0 ] && [ ! -f "$OUT/graphs/labelling.txt" ]; }; then
	$PY bench/features_graphs.py "$OUT/graphs" --labelling "$LABEL_COUNT"
fi
G="$OUT/graphs"
SMALL="$G/dcbm_n100.txt $G/dcbm_n500.txt $G/dcbm_n2000.txt $G/er_n2000.txt $G/ba_n2000.txt"

load() { echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }

load
echo "# features, ours, 1 thread"
"$OUT/features_bench" -j 1 -r "$REPS" features $SMALL "$G/dcbm_n10000.txt" | tee "$OUT/ours_features.tsv"
load
echo "# centralities, ours, 1 and 2 threads"
"$OUT/features_bench" -j 1 -r "$REPS" centrality $SMALL | tee "$OUT/ours_centrality_j1.tsv"
"$OUT/features_bench" -j 2 -r "$REPS" centrality $SMALL | tee "$OUT/ours_centrality_j2.tsv"
load
echo "# igraph (1 thread; subgraph = numpy eigh)"
$PY bench/features_peers.py -r "$REPS" $SMALL | tee "$OUT/igraph.tsv"
$PY bench/features_peers.py -r "$REPS" --quantities degree,core,ci1,clustering,eigenvector \
	"$G/dcbm_n10000.txt" | tail -n +2 | tee -a "$OUT/igraph.tsv"
if [ "$LABEL_COUNT" -gt 0 ]; then
	load
	echo "# full labelling of $LABEL_COUNT DCBM graphs (2 threads) vs dsyevd alone"
	"$OUT/features_bench" -j 2 -s labelling "$G/labelling.txt" | tee "$OUT/labelling.tsv"
	load
fi
