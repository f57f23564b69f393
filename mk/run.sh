#!/bin/sh
# run.sh - the README's first pipeline on data made on the spot: generate
# DCBM graphs, mask 20% of their edges, and summarise the result.
set -eu
cd "$(dirname "$0")/.."
out=${OUT:-out}
mkdir -p "$out"
PATH="$PWD/bin:$PATH"
echo "== dcbm-gen: 64 graphs of 100..2000 nodes (paper ranges), seed 1" >&2
dcbm-gen --count 64 --seed 1 -o "$out/dcbm.gs"
echo "== mask-edges: 20% of edges removed, 128 positives + 256 negatives per graph" >&2
mask-edges --seed 2 -o "$out/masked.gs" "$out/dcbm.gs"
echo "== summary (text form, first lines)" >&2
mask-edges --seed 2 -q -t "$out/dcbm.gs" | awk '
	/^@graph/ { g++; for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "nodes") n += kv[2]; if (kv[1] == "edges") m += kv[2] } }
	/^@pairs/ { p++ }
	END { printf "%d graphs, %d nodes, %d edges after masking, %d pair sets\n", g, n, m, p }'
ls -l "$out"
