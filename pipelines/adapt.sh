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
# shellcheck disable=SC2086
exec "$BIN/gcn-adapt" -q -j "$THREADS" -s "$SEED" --runs "$RUNS" --task $task $opt \
	${ADAPT_OPTS:-} -t -o "$out" "$DATA/$ds.gs"
