#!/bin/sh
# mpi.sh - `make bench` section "Pre-training across processes (MPI)":
# gcn-train's step on the paper's batch (32 DCBM graphs, d = 512) in one
# process of 2 threads summing by batch (the default) and by graph
# (--reduce graph), and in 2 processes of 1 thread under mpirun, and the
# allreduce of the gradient alone, exact and as plain floats
# (bench/mpi_allreduce.c), the runs alternated; then a projection of the
# step across machines from the measured parts (bench/mpi_bench.py).  Markdown on stdout, progress on
# stderr.  Skipped, with a line that says so, where mpirun or gcn-train's
# MPI is missing.
#
#   sh bench/mpi.sh [OUTDIR]        (default: a temporary directory)
#
# Environment: RUNS=3 (rounds of the three runs), STEPS=5 (steps a run,
# the first left out of the medians), SEED=1 (dcbm-gen seed of the batch
# and of the 1,024 graphs whose sizes give the split's imbalance).
set -eu
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
STEPS=${STEPS:-5}
SEED=${SEED:-1}
echo "## Pre-training across processes (MPI)"
echo
if ! command -v mpirun >/dev/null 2>&1 || bin/gcn-train -h | grep -q '^  MPI: not built in'; then
	echo "Skipped: no mpirun, or gcn-train built without MPI (Debian: libopenmpi-dev openmpi-bin)."
	exit 0
fi
if [ $# -gt 0 ]; then
	OUT=$1
	mkdir -p "$OUT"
else
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/gnnpipe-mpibench.XXXXXX")
	trap 'rm -rf "$OUT"' EXIT
	trap 'exit 130' INT TERM
fi
MPIRUN="mpirun -q --oversubscribe"
[ "$(id -u)" -ne 0 ] || MPIRUN="$MPIRUN --allow-run-as-root"

make -s bin/gcn-train build/dist-mpi.o libcommon.a >&2
mpicc -std=c11 -fopenmp -O2 -iquote common -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-o "$OUT/mpi_allreduce" bench/mpi_allreduce.c build/dist-mpi.o libcommon.a \
	-lgsl -llapacke -lopenblas -larpack -lyaml -lz -lm
[ -s "$OUT/batch.gs" ] || bin/dcbm-gen -q -s "$SEED" --count 32 | bin/centrality -q -j 2 -o "$OUT/batch.gs"
# the sizes of a pre-training set: nodes= of each graph's header
[ -s "$OUT/sizes" ] || bin/dcbm-gen -q -t -l 0 -s "$SEED" --count 1024 |
	sed -n 's/^@graph .* nodes=\([0-9]*\).*/\1/p' >"$OUT/sizes"

load() { cut -d' ' -f1 /proc/loadavg; }
for r in $(seq "$RUNS"); do
	for c in batch graph ranks2 allreduce; do
		echo "mpi.sh: round $r, $c (load $(load))" >&2
		case $c in
		batch) set -- bin/gcn-train -q -j 2 --bench-steps "$STEPS" "$OUT/batch.gs" ;;
		graph) set -- bin/gcn-train -q -j 2 --reduce graph --bench-steps "$STEPS" "$OUT/batch.gs" ;;
		ranks2) set -- $MPIRUN -np 2 bin/gcn-train -q -j 1 --bench-steps "$STEPS" "$OUT/batch.gs" ;;
		allreduce) set -- $MPIRUN -np 2 "$OUT/mpi_allreduce" 4474911 10 ;;
		esac
		l0=$(load)
		"$@" >"$OUT/$c.$r.tsv"
		printf 'load_before\t%s\nload_after\t%s\n' "$l0" "$(load)" >>"$OUT/$c.$r.tsv"
	done
done
exec /usr/bin/python3 bench/mpi_bench.py "$OUT" "$RUNS"
