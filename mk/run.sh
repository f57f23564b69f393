#!/bin/sh
# run.sh - `make run`: what the shipped model (models/gcn-pretrain.gs, the
# encoder pre-trained in the paper's configuration) is worth, on data that
# ships with the project, in about a minute and a half on two cores:
#   1. gcn-embed gives every node of Cora (structure only), of a
#      structural-role graph (motif-gen's ba-shapes: houses on a
#      Barabasi-Albert base, a node's class its role) and of IMDB-BINARY's
#      1,000 graphs the shipped encoder's features (three blocks, 1,536
#      columns), and Cora's as a NumPy array;
#   2. the same network from random values (gcn-embed --no-pretrain, a new
#      draw every run) and a hand-made structural set (nodefeat --set
#      refex, 20 columns) are the baselines;
#   3. linprobe fits a logistic regression on 20 labelled nodes of each
#      class and tests the others, RUNS times (10) on the same splits for
#      every arm (IMDB-BINARY: each graph's mean and max of its nodes' rows,
#      RUNS-fold cross-validation); evalf1 --baseline gives the paired
#      differences with their 95% intervals.  The graph set is where the
#      model gains nothing (pipelines/results/transfer.md): shown too.
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
# the probe: 20 labelled nodes a class, or a graph set's folds; C by
# 3-fold CV (linprobe(1))
probe() {	# probe SET VECTORS RUN NRUNS OUT [linprobe options]
	how="--train-per-class 20"
	[ "$1" != imdb-binary ] || how="--task graph --pool meanmax --folds $runs"
	v=$2 r=$3 n=$4 o=$5
	shift 5
	# shellcheck disable=SC2086
	linprobe -q -t -j "$threads" $how --cv-folds 3 --C-grid 0.001..10 \
		--first-run "$r" --runs "$n" "$@" "$v" >>"$o"
}

motif-gen -q --preset ba-shapes -s 1 -o "$out/ba-shapes.gs"
for set in cora ba-shapes imdb-binary; do
	in=data/$set.gs
	[ "$set" != ba-shapes ] || in=$out/$set.gs
	step "$set: the shipped encoder's features, the hand-made set, $runs random networks; linprobe, $runs runs"
	gcn-embed -q -j "$threads" -o "$out/$set-pretrained.gs" "$in"
	nodefeat -q -j "$threads" --set refex -o "$out/$set-refex.gs" "$in"
	: >"$out/$set-pretrained.txt"
	: >"$out/$set-refex.txt"
	: >"$out/$set-random.txt"
	probe "$set" "$out/$set-pretrained.gs" 0 "$runs" "$out/$set-pretrained.txt"
	probe "$set" "$out/$set-refex.gs" 0 "$runs" "$out/$set-refex.txt" --tensor features
	r=0
	while [ "$r" -lt "$runs" ]; do
		gcn-embed -q -j "$threads" --no-pretrain -s "$r" -o "$out/$set-random.gs" "$in"
		probe "$set" "$out/$set-random.gs" "$r" 1 "$out/$set-random.txt"
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
		    $10 == "gain" ? "a gain" : $10 == "loss" ? "a loss" : "no clear difference" }'
}
echo
echo "Linear probe on the frozen features, micro-F1 in % over $runs runs (the same splits"
echo "for every arm; nodes: 20 labelled a class; graphs: $runs folds); pre-trained minus baseline, paired:"
for set in cora ba-shapes imdb-binary; do
	p=$out/$set-pretrained.txt
	echo
	case $set in
	imdb-binary) echo "  imdb-binary (graphs)" ;;
	*) echo "  $set" ;;
	esac
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
