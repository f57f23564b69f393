#!/bin/sh
# run.sh - `make run`: what the shipped model (models/gcn-pretrain.gs, the
# encoder pre-trained in the paper's configuration) is worth, on data that
# ships with the project, in under a minute on two cores:
#   1. gcn-embed gives every node of Cora (structure only) and of a
#      structural-role graph (motif-gen's ba-shapes: houses on a
#      Barabasi-Albert base, a node's class its role) the shipped encoder's
#      features (three blocks, 1,536 columns), and Cora's as a NumPy array;
#   2. the same network from random values (gcn-embed --no-pretrain, a new
#      draw every run) and a hand-made structural set (nodefeat --set
#      refex, 20 columns) are the baselines;
#   3. linprobe fits a logistic regression on 20 labelled nodes of each
#      class and tests the others, RUNS times (10) on the same splits for
#      every arm; evalf1 --baseline gives the paired differences with their
#      95% intervals.
# The paper's fine-tuning comparison is `make run-adapt` (mk/run-adapt.sh,
# about 12 minutes); the whole benchmark `make -C pipelines transfer`.
# Everything goes to out/ (OUT=dir to change it); RUNS, THREADS.
set -eu
cd "$(dirname "$0")/.."
out=${OUT:-out}
runs=${RUNS:-10}
threads=${THREADS:-2}
mkdir -p "$out"
PATH="$PWD/bin:$PATH"
t0=$(date +%s)
step() { echo "== [$(( $(date +%s) - t0 )) s] $*" >&2; }
# the probe: 20 labelled nodes a class, C by 3-fold CV (linprobe(1))
probe() {	# probe VECTORS RUN NRUNS OUT [linprobe options]
	v=$1 r=$2 n=$3 o=$4
	shift 4
	linprobe -q -t -j "$threads" --train-per-class 20 --cv-folds 3 --C-grid 0.001..10 \
		--first-run "$r" --runs "$n" "$@" "$v" >>"$o"
}

motif-gen -q --preset ba-shapes -s 1 -o "$out/ba-shapes.gs"
for set in cora ba-shapes; do
	in=data/$set.gs
	[ "$set" = cora ] || in=$out/$set.gs
	step "$set: the shipped encoder's features, the hand-made set, $runs random networks; linprobe, $runs runs"
	gcn-embed -q -j "$threads" -o "$out/$set-pretrained.gs" "$in"
	nodefeat -q -j "$threads" --set refex -o "$out/$set-refex.gs" "$in"
	: >"$out/$set-pretrained.txt"
	: >"$out/$set-refex.txt"
	: >"$out/$set-random.txt"
	probe "$out/$set-pretrained.gs" 0 "$runs" "$out/$set-pretrained.txt"
	probe "$out/$set-refex.gs" 0 "$runs" "$out/$set-refex.txt" --tensor features
	r=0
	while [ "$r" -lt "$runs" ]; do
		gcn-embed -q -j "$threads" --no-pretrain -s "$r" -o "$out/$set-random.gs" "$in"
		probe "$out/$set-random.gs" "$r" 1 "$out/$set-random.txt"
		r=$((r + 1))
	done
	rm -f "$out/$set-random.gs"
done
step "gcn-embed: the structural features of Cora's nodes -> $out/cora-embeddings.npy"
gcn-embed -q -j "$threads" --npy "$out/cora-embeddings.npy" data/cora.gs

# mean ± sd of a predictions file, and a paired difference, in %
cell() {
	evalf1 --format tsv "$1" | awk -F '\t' '$1 == "mean" { m = $3 } $1 == "std" { s = $3 }
		END { printf "%5.1f ± %.1f", 100 * m, 100 * s }'
}
gain() {
	evalf1 --format tsv --baseline "$2" "$1" | awk -F '\t' '$2 == "micro_f1" {
		printf "%+5.1f, 95%% interval [%+.1f, %+.1f]: %s", 100 * $6, 100 * $8, 100 * $9,
		    $10 == "yes" ? "a gain" : $9 < 0 ? "a loss" : "no clear difference" }'
}
echo
echo "Linear probe on the frozen features, 20 labelled nodes a class, micro-F1 in %"
echo "over $runs runs (the same splits for every arm); pre-trained minus baseline, paired:"
for set in cora ba-shapes; do
	p=$out/$set-pretrained.txt
	echo
	echo "  $set"
	printf '    shipped pre-trained encoder  %s\n' "$(cell "$p")"
	printf '    random encoder (same shape)  %s   pre-trained %s\n' "$(cell "$out/$set-random.txt")" \
		"$(gain "$p" "$out/$set-random.txt")"
	printf '    hand-made set (ReFeX, 20)    %s   pre-trained %s\n' "$(cell "$out/$set-refex.txt")" \
		"$(gain "$p" "$out/$set-refex.txt")"
done
echo
echo "The whole benchmark, every dataset and baseline: pipelines/results/transfer.md."
echo "Embeddings: $out/cora-embeddings.npy, one row per node; in Python:"
echo "  import numpy as np; x = np.load('$out/cora-embeddings.npy')   # (2708, 1536)"
echo "took $(( $(date +%s) - t0 )) s; files in $out/"
