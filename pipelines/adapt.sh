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
#   rwse-pre      pre-trained on RWSE features (model-rwse.gs, its stage)
#   rwse-base     no pre-training, RWSE features (RWSE_FEATURES)
#   long-pre      pre-trained until converged (model-long.gs)
# Environment (set by the Makefile): BIN, DATA, MODELS (the directory of
# model-*.gs), RUNS, SEED, THREADS, ADAPT_OPTS (extra gcn-adapt options),
# RUN_LOG (optional: the run log below).
# The arms without pre-training (base, base-attr, tfF-base) take the
# encoder's shape from model-arch.gs, a model of the same config trained
# for one step: gcn-adapt --no-pretrain draws fresh values and reads only
# the config, so those cells need not wait hours for model-all.gs.
set -eu
[ $# -eq 3 ] || { echo "usage: sh adapt.sh DS ARM OUT" >&2; exit 2; }
ds=$1 arm=$2 out=$3
case $ds in
cora | pubmed) task="node" ;;
ml-100k | ml-1m) task="link" ;;
imdb-binary | imdb-multi) task="graph" ;;
*) echo "adapt.sh: unknown dataset '$ds'" >&2; exit 2 ;;
esac
m="--model $MODELS/model-all.gs"
feat=	# an arm's --features: one argument, blanks and all
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
rwse-pre) opt="--model $MODELS/model-rwse.gs" ;;
long-pre) opt="--model $MODELS/model-long.gs" ;;
rwse-base) opt="$a --no-pretrain" feat="${RWSE_FEATURES:?adapt.sh: RWSE_FEATURES is not set}" ;;
*) echo "adapt.sh: unknown arm '$arm'" >&2; exit 2 ;;
esac

# One run at a time (gcn-adapt --first-run r --runs 1: run r draws from
# stream (SEED, r) either way, so the records are those of one 10-run
# call), each into OUT.parts/, then the parts concatenated into OUT.  A
# stopped cell keeps its finished runs: the next call reuses a part when the
# arguments are the same and no input (data, model, gcn-adapt, this
# script) is newer than the parts directory.
args="-s $SEED --task $task $opt ${ADAPT_OPTS:-} $DATA/$ds.gs"
# what the kept runs were made with: the arguments and the feature stage
key="$args${feat:+ --features $feat}"
parts=$out.parts
if [ -f "$parts/args" ] && [ "$(cat "$parts/args")" = "$key" ]; then
	# shellcheck disable=SC2086
	for f in "$DATA/$ds.gs" "$BIN/gcn-adapt" "$0" $(printf '%s\n' $opt | sed -n '/\.gs$/p'); do
		# f newer than the kept runs (-L: a symlink's target counts)
		if [ -n "$(find -L "$f" -prune -newer "$parts/args")" ]; then rm -rf "$parts"; fi
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
	printf '%s\n' "$key" >"$parts/args"
fi
# RUN_LOG (set by TIMES=1): one line per finished run, "end (ISO time),
# dataset, arm, run, wall seconds, CPU seconds", so a cell that spans
# several sessions has its whole time logged (times.sh sums it).
# CPU seconds from a `times` output (its second line: the children),
# written by this shell itself: in a command substitution it would see none
cpu() {
	sed -n 2p "$1" | awk '{ for (i = 1; i <= 2; i++) { split($i, t, "m");
		sub(/s$/, "", t[2]); c += 60 * t[1] + t[2] } printf "%.2f", c }'
}
r=0
while [ "$r" -lt "$RUNS" ]; do
	if [ ! -f "$parts/r$r.txt" ]; then
		t0=$(date +%s.%N)
		times >"$parts/times0"
		# shellcheck disable=SC2086
		if [ -n "$feat" ]; then set -- --features "$feat"; else set --; fi
		"$BIN/gcn-adapt" -q -j "$THREADS" --first-run "$r" --runs 1 $args "$@" -t -o "$parts/r$r.txt"
		if [ -n "${RUN_LOG:-}" ]; then
			times >"$parts/times1"
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date +%FT%T)" "$ds" "$arm" "$r" \
				"$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')" \
				"$(awk -v a="$(cpu "$parts/times0")" -v b="$(cpu "$parts/times1")" \
					'BEGIN { printf "%.2f", b - a }')" >>"$RUN_LOG"
		fi
	fi
	r=$((r + 1))
done
r=0
while [ "$r" -lt "$RUNS" ]; do
	cat "$parts/r$r.txt"
	r=$((r + 1))
done >"$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$parts"
