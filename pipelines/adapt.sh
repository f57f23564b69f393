#!/bin/sh
# adapt.sh - one cell of a table or figure: gcn-adapt on dataset DS with
# the arm ARM, predictions in text form to OUT (evalf1 scores them).
#   sh adapt.sh DS ARM OUT
# DS: cora pubmed (node classification), ml-100k ml-1m (link: ratings),
#     imdb-binary imdb-multi (graph classification)
# ARM:
#   base          no pre-training: the same architecture from random values
#   pre           pre-trained on all tasks (model-all.gs)
#   pre-TASK      pre-trained on TASK alone (model-TASK.gs): Table 2
#   attr          the attributes-only GCN
#   base-attr     no pre-training, attributes concatenated
#   pre-attr      pre-trained, attributes concatenated
#   fzK-pre       Figure 3: E and the bottom K blocks fixed (K = m1 for -1)
#   fzK-rand      the same with random values above the boundary
#   tfF-pre       Figure 4: F tenths of the training labels, pre-trained
#   tfF-base      the same without pre-training
# Environment (set by the Makefile): BIN, DATA, MODELS (the directory of
# model-*.gs), RUNS, SEED, THREADS, ADAPT_OPTS (extra gcn-adapt options).
# The arms without pre-training (base, base-attr, tfF-base) take the
# encoder's shape from model-arch.gs, a model of the same config trained
# for one step: gcn-adapt --no-pretrain draws fresh values and reads only
# the config, so those cells need not wait hours for model-all.gs.
set -eu
[ $# -eq 3 ] || { echo "usage: sh adapt.sh DS ARM OUT" >&2; exit 2; }
ds=$1 arm=$2 out=$3
case $ds in
cora | pubmed) task=node ;;
ml-100k | ml-1m) task=link ;;
imdb-binary | imdb-multi) task=graph ;;
*) echo "adapt.sh: unknown dataset '$ds'" >&2; exit 2 ;;
esac
m="--model $MODELS/model-all.gs"
a="--model $MODELS/model-arch.gs"
case $arm in
base) opt="$a --no-pretrain" ;;
pre) opt="$m" ;;
pre-rec | pre-rank | pre-cluster) opt="--model $MODELS/model-${arm#pre-}.gs" ;;
attr) opt="--attr-only" ;;
base-attr) opt="$a --no-pretrain --attributes" ;;
pre-attr) opt="$m --attributes" ;;
fz*-pre | fz*-rand)
	k=${arm#fz}
	k=${k%-*}
	[ "$k" = m1 ] && k=-1
	opt="$m --freeze $k"
	case $arm in *-rand) opt="$opt --random-above" ;; esac ;;
tf*-pre | tf*-base)
	f=${arm#tf}
	f=${f%-*}
	case $arm in *-base) m="$a --no-pretrain" ;; esac
	opt="$m --train-fraction 0.$f"
	[ "$f" = 10 ] && opt="$m --train-fraction 1" ;;
*) echo "adapt.sh: unknown arm '$arm'" >&2; exit 2 ;;
esac

# One run at a time (gcn-adapt --first-run r --runs 1: run r draws from
# stream (SEED, r) either way, so the records are those of one 10-run
# call), each into OUT.parts/, then the parts concatenated into OUT.  A
# stopped cell keeps its finished runs: the next call reuses a part when the
# arguments are the same and no input (data, model, gcn-adapt, this
# script) is newer than the parts directory.
args="-s $SEED --task $task $opt ${ADAPT_OPTS:-} $DATA/$ds.gs"
parts=$out.parts
if [ -f "$parts/args" ] && [ "$(cat "$parts/args")" = "$args" ]; then
	# shellcheck disable=SC2086
	for f in "$DATA/$ds.gs" "$BIN/gcn-adapt" "$0" $(printf '%s\n' $opt | sed -n '/\.gs$/p'); do
		if [ "$f" -nt "$parts/args" ]; then rm -rf "$parts"; fi
	done
else
	rm -rf "$parts"
fi
if [ -d "$parts" ]; then
	kept=$(find "$parts" -name 'r*.txt' | wc -l)
	if [ "$kept" -gt 0 ]; then
		echo "adapt.sh: $ds, $arm: $kept finished runs kept from a stopped cell" >&2
	fi
else
	mkdir -p "$parts"
	printf '%s\n' "$args" >"$parts/args"
fi
r=0
while [ "$r" -lt "$RUNS" ]; do
	# shellcheck disable=SC2086
	[ -f "$parts/r$r.txt" ] ||
		"$BIN/gcn-adapt" -q -j "$THREADS" --first-run "$r" --runs 1 $args -t -o "$parts/r$r.txt"
	r=$((r + 1))
done
r=0
while [ "$r" -lt "$RUNS" ]; do
	cat "$parts/r$r.txt"
	r=$((r + 1))
done >"$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$parts"
