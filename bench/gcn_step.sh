#!/bin/sh
# gcn_step.sh - `make bench` section "Pre-training step: gcn-train vs PyTorch":
# one training step of the default configuration (d = 512, L = 3, a batch of
# 32 DCBM graphs of 100..2000 nodes, the paper's parameter ranges) of
# bin/gcn-train in fp32 and in bf16 (--precision) against the PyTorch
# reference torch_gcn_ref.py of the peer harness in fp32 and under
# torch.autocast bf16 (its --autocast bf16), on the same batch, with the same
# thread count, in the same run; next to the rates of a plain OpenBLAS sgemm
# and a plain oneDNN bf16 matmul on this machine (bench/gcn_sgemm.c).
# Markdown on stdout, progress on stderr.  The measuring and the table are in
# bench/gcn_step.py.
#
#   sh bench/gcn_step.sh [OUTDIR]         (default: a temporary directory,
#                                          removed at the end)
#
# Environment (defaults; about 6 min on 2 idle cores, most of it the 4 x 7
# training steps and the centralities of the batch):
#   STEPS=5        timed steps per trainer (median), after
#   WARMUP=2       warm-up steps (as torch_gcn_ref.py's run())
#   THREADS=2      threads of both trainers and of the sgemm
#   SEED=1         dcbm-gen seed of the batch
#   IDLE_WAIT=10   before each trainer, wait at most this many seconds for
#                  other processes to go idle (the machine may be shared)
#   SGEMM_M=37000  rows of the sgemm (about the batch's node count)
#   PEER_BENCH     the peer harness directory (torch_gcn_ref.py, benchlib.py),
#                  default ../shared/bench beside the repository
# Needs /usr/bin/python3 with numpy, torch and python-igraph, OpenBLAS
# (-lopenblas) for the sgemm, and oneDNN (build/optional.mk, from
# mk/deps.sh optional) for the bf16 rows; without it they say so.  The bf16
# rows (ours and PyTorch's) run only where the CPU has bf16 matrix
# instructions (mk/cpu-bf16.sh, which honours ONEDNN_MAX_CPU_ISA): elsewhere
# they are skipped, and the table says why.
set -eu
T0=$(date +%s)
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
cd "$(dirname "$0")/.."
STEPS=${STEPS:-5}
WARMUP=${WARMUP:-2}
THREADS=${THREADS:-2}
SEED=${SEED:-1}
IDLE_WAIT=${IDLE_WAIT:-10}
SGEMM_M=${SGEMM_M:-37000}
PEER_BENCH=${PEER_BENCH:-$(cd .. && pwd)/shared/bench}
export PEER_BENCH
PY=/usr/bin/python3

[ -f "$PEER_BENCH/torch_gcn_ref.py" ] ||
	{ echo "gcn_step.sh: $PEER_BENCH/torch_gcn_ref.py missing (PEER_BENCH)" >&2; exit 1; }

if [ $# -gt 0 ]; then
	OUT=$1
	mkdir -p "$OUT"
else
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/gnnpipe-gcnstep.XXXXXX")
	trap 'rm -rf "$OUT"' EXIT
	trap 'exit 130' INT TERM
fi

echo "gcn_step.sh: make" >&2
make -s >&2
# oneDNN's flags as the build found them (build/optional.mk)
DNNL_CPPFLAGS=$(sed -n 's/^DNNL_CPPFLAGS = *//p' build/optional.mk 2>/dev/null || true)
DNNL_LDLIBS=$(sed -n 's/^DNNL_LDLIBS = *//p' build/optional.mk 2>/dev/null || true)
cc -std=c11 -O2 -Wall -Wextra -fopenmp $DNNL_CPPFLAGS -o "$OUT/gcn_sgemm" bench/gcn_sgemm.c \
	-lopenblas $DNNL_LDLIBS -lm

# The batch, in the text form so that gcn_step.py can read it; gcn-train
# reads either form.
BATCH_CMD="dcbm-gen -s $SEED --count 32 | centrality"
echo "gcn_step.sh: $BATCH_CMD" >&2
bin/dcbm-gen -t -l 0 -s "$SEED" --count 32 |
	bin/centrality -t -l 0 -j "$THREADS" -o "$OUT/batch.txt"

NO_BF16=$(sh mk/cpu-bf16.sh) && NO_BF16=""
[ -z "$NO_BF16" ] || echo "gcn_step.sh: SKIP: the bf16 rows: $NO_BF16" >&2
$PY bench/gcn_step.py run --stream "$OUT/batch.txt" --gcn-train bin/gcn-train --no-bf16 "$NO_BF16" \
	--sgemm "$OUT/gcn_sgemm" --sgemm-m "$SGEMM_M" --steps "$STEPS" --warmup "$WARMUP" \
	--threads "$THREADS" --idle-wait "$IDLE_WAIT" --workdir "$OUT" \
	--load-before "$LOAD_BEFORE" --batch-cmd "$BATCH_CMD" --t0 "$T0"
