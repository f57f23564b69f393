#!/bin/sh
# smoke.sh - `make smoke`: a smoke test of the whole method on data that
# ships with the project, small enough for a few minutes on two cores; not
# a result (a d = 128 encoder pre-trained for a few epochs shows no gain:
# the full pre-training is hours, see `make run` and models/README.md).
#   1. DCBM graphs (paper parameter ranges, 100..500 nodes) and their
#      centralities: the pre-training set;
#   2. gcn-train pre-trains a d = 128 encoder on the three tasks
#      (pipelines/quick.yaml; it re-masks 20% of the edges every step);
#   3. gcn-adapt classifies Cora's nodes from structure alone, 10 runs,
#      with the pre-trained encoder and with a random one (the baseline);
#   4. evalf1 scores both.
# Every stage goes to out/smoke/ (OUT=dir to change it); GRAPHS, RUNS.
set -eu
cd "$(dirname "$0")/.."
out=${OUT:-out/smoke}
n=${GRAPHS:-256}
runs=${RUNS:-10}
mkdir -p "$out"
PATH="$PWD/bin:$PATH"
t0=$(date +%s)
step() { echo "== [$(( $(date +%s) - t0 )) s] $*" >&2; }
step "dcbm-gen: $n graphs of 100..500 nodes, seed 1 -> $out/dcbm.gs"
dcbm-gen --count "$n" --nodes 100..500 --seed 1 -o "$out/dcbm.gs"
step "centrality: the ranking targets -> $out/labelled.gs"
centrality -o "$out/labelled.gs" "$out/dcbm.gs"
step "gcn-train: pre-training, pipelines/quick.yaml -> $out/model.gs"
gcn-train --progress --config pipelines/quick.yaml --log "$out/train.tsv" \
	-o "$out/model.gs" "$out/labelled.gs"
step "gcn-adapt: Cora node classification, pre-trained encoder, $runs runs -> $out/cora-pretrained.gs"
gcn-adapt --progress --runs "$runs" --model "$out/model.gs" -o "$out/cora-pretrained.gs" data/cora.gs
step "gcn-adapt: the same from a random encoder (baseline) -> $out/cora-baseline.gs"
gcn-adapt --progress --runs "$runs" --model "$out/model.gs" --no-pretrain \
	-o "$out/cora-baseline.gs" data/cora.gs
step "evalf1"
evalf1 -o "$out/cora-pretrained.txt" "$out/cora-pretrained.gs"
evalf1 -o "$out/cora-baseline.txt" "$out/cora-baseline.gs"
echo
echo "Cora, structure only (4 node features), micro-F1 over $runs runs:"
printf '  pre-trained encoder: %s\n' "$(tail -n 1 "$out/cora-pretrained.txt")"
printf '  random encoder:      %s\n' "$(tail -n 1 "$out/cora-baseline.txt")"
echo "  (a smoke test, not a result: this small, short pre-training is not expected"
echo "   to help; \`make run\` adapts the shipped, fully pre-trained model)"
echo "took $(( $(date +%s) - t0 )) s; files in $out/"
