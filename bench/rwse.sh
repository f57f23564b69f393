#!/bin/sh
# rwse.sh - `make bench` section "Random-walk return probabilities":
# `nodefeat --set rwse` (common/rwse.c) on Cora, Pubmed, two batches of 32
# DCBM graphs (the default 100..2000 nodes, and 1000..2000) and a DCBM graph
# of 10^6 nodes (estimated), against numpy's dense matrix powers where n^2
# fits (the definition, as tests/cli/rwse_ref.py computes it).  Markdown on
# stdout, progress on stderr; see bench/rwse_bench.py.
#
#   sh bench/rwse.sh [OUTDIR]        (default /tmp/gnnpipe-rwsebench)
#
# Environment: RUNS=3 (timed runs per cell, median), BIG_N=1000000 (0 leaves
# the big graph out), GNNPIPE_DATA (for Pubmed, as data/Makefile).
set -eu
cd "$(dirname "$0")/.."
[ -x bin/nodefeat ] || { echo "rwse.sh: bin/nodefeat missing; run make" >&2; exit 1; }
make -s -C data pubmed.gs >&2 || echo "rwse.sh: no Pubmed (make -C data pubmed.gs failed)" >&2
exec /usr/bin/python3 bench/rwse_bench.py --out "${1:-/tmp/gnnpipe-rwsebench}" \
	--runs "${RUNS:-3}" --big-n "${BIG_N:-1000000}"
