#!/bin/sh
# features_bench.sh - `make bench` section "Node features and centralities":
# times of common/nodefeat.c and common/centrality*.c (bench/features_bench.c)
# against python-igraph and networkx on DCBM n = 2,000 and 10,000, Cora,
# Pubmed and (linear-time features only) a DCBM graph of over 10^6 edges,
# and the full labelling of LABEL_COUNT DCBM graphs against LAPACK dsyevd
# alone.  Markdown on stdout, progress on stderr, raw TSVs in OUTDIR.
# The tables and rules are produced by bench/features_table.py.
#
#   sh bench/features_bench.sh [OUTDIR]        (default /tmp/gnnpipe-featbench)
#
# Environment (defaults; the full section took 19 min on 2 cores with one
# core busy elsewhere, 31 min under a load average of 2-6):
#   REPS=5            timed calls per cell (median), after one warm-up call
#   LONG_CALL=2       a first call of at least this many seconds is the only one
#   LABEL_COUNT=1024  DCBM graphs of the labelling run (0 skips it; it is
#                     about half of the section's time)
#   LABEL_SPLIT=0     1 also times features, betweenness+closeness and
#                     eigenvector+subgraph of the labelling apart (+50%)
#   PEER_TIMEOUT=120  seconds after which an igraph/networkx call is killed;
#                     cells predicted (from a smaller graph) to exceed it are
#                     skipped
#   DENSE_MAX_N=5000  subgraph centrality (dense eigendecomposition, n^3, for
#                     every tool) only on graphs of at most this many nodes
#                     (10000 adds DCBM n=10,000: about +8 min)
#   BIG_N=100000 BIG_K=2.5  the big DCBM graph (mean degree 10 BIG_K; the
#                     default has 1.25 million edges); BIG_N=0 leaves it out
#   PEER_BENCH        the peer harness directory (gen_graphs.py,
#                     peer_impls.py), default ../shared/bench beside the
#                     repository; GNNPIPE_DATA the datasets, default
#                     ../shared/data
# Needs libcommon.a (run `make` first) and /usr/bin/python3 with numpy,
# scipy, networkx and python-igraph.  The machine should be otherwise idle:
# the load averages are printed under the tables.
set -eu
T0=$(date +%s)
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/gnnpipe-featbench}
REPS=${REPS:-5}
LONG_CALL=${LONG_CALL:-2}
LABEL_COUNT=${LABEL_COUNT:-1024}
LABEL_SPLIT=${LABEL_SPLIT:-0}
PEER_TIMEOUT=${PEER_TIMEOUT:-120}
DENSE_MAX_N=${DENSE_MAX_N:-5000}
BIG_N=${BIG_N:-100000}
BIG_K=${BIG_K:-2.5}
PY=/usr/bin/python3
mkdir -p "$OUT"

[ -f libcommon.a ] || { echo "features_bench.sh: libcommon.a missing; run make" >&2; exit 1; }
cc -std=c11 -fopenmp -O2 -g -Wall -Wextra -iquote common \
	-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -o "$OUT/features_bench" \
	bench/features_bench.c libcommon.a -lgsl -llapacke -lopenblas -larpack -lyaml -lz -lm

# writes only the graphs that are missing (they are deterministic)
big=
[ "$BIG_N" -gt 0 ] && big=dcbm_n${BIG_N}_k$($PY -c 'import sys; print("%g" % float(sys.argv[1]))' "$BIG_K").txt
$PY bench/features_graphs.py "$OUT/graphs" --labelling "$LABEL_COUNT" \
	--big-n "$BIG_N" --big-k "$BIG_K"

split=
[ "$LABEL_SPLIT" = 1 ] && split=--label-split
FEATURES_T0=$T0 exec $PY bench/features_table.py --bin "$OUT/features_bench" \
	--graphs "$OUT/graphs" --out "$OUT" --reps "$REPS" --long "$LONG_CALL" \
	--timeout "$PEER_TIMEOUT" --dense-max "$DENSE_MAX_N" --big "$big" \
	--label-count "$LABEL_COUNT" $split
