#!/bin/sh
# transfer-table.sh - the transfer benchmark's table (transfer.mk): for each
# dataset and protocol, every arm's micro-F1 (mean ± sd over the runs) and
# the pre-trained arm's paired difference to each baseline with its 95%
# t-interval (evalf1 --baseline), a gain where the interval is above 0;
# then each fine-tuning cell against the probe of the same arm on the
# same items.
#   sh transfer-table.sh DIR TITLE MODEL CELL...    markdown on stdout
# DIR holds pred/SET--ARM--PROTO.gs (the probe) and tune/SET--ARM--PROTO.gs
# (the fine-tuning); each CELL names the pre-trained arm's file of a row,
# relative to DIR (pred/cora--pre--few.gs), in the table's order; MODEL is
# the model under test, named in the header.
set -eu
[ $# -ge 4 ] || { echo "usage: sh transfer-table.sh DIR TITLE MODEL CELL..." >&2; exit 2; }
dir=$1 title=$2 model=$3
shift 3
EVALF1=${BIN:+$BIN/}evalf1
# the baselines, and with TR_TABLE_ARMS others (candidates.sh: ref)
arms=${TR_TABLE_ARMS:-rand feat featlog refex}
name() {
	case $1 in
	ref) echo "the reference candidate" ;;
	pre) echo "pre-trained" ;;
	rand) echo "random weights" ;;
	feat) echo "input features" ;;
	featlog) echo "features, log" ;;
	refex) echo "hand-made (ReFeX)" ;;
	esac
}
pname() {	# pname pred|tune PROTO
	case $1.$2 in
	pred.few) echo "probe, 20 a class" ;;
	pred.many) echo "probe, 80/20" ;;
	pred.folds) echo "probe, 10 folds" ;;
	tune.few) echo "fine-tuning, 20 a class" ;;
	tune.folds) echo "fine-tuning, 10 folds" ;;
	tune.paper) echo "fine-tuning, gcn-adapt's split" ;;
	esac
}
# mean ± sd of a predictions file, in %
cell() {
	"$EVALF1" --format tsv "$1" 2>/dev/null |
		awk -F '\t' '$1 == "mean" { m = $3 } $1 == "std" { s = $3 }
		     END { printf "%.1f ± %.1f", 100 * m, 100 * s }'
}
# the paired difference of $1 against the baseline $2, in %; bold if a gain
diff_cell() {
	"$EVALF1" --format tsv --baseline "$2" "$1" 2>/dev/null |
		awk -F '\t' '$2 == "micro_f1" { g = $10 == "gain"; l = $10 == "loss"
			s = sprintf("%+.1f [%+.1f, %+.1f]", 100 * $6, 100 * $8, 100 * $9)
			printf "%s", g ? "**" s "**" : l ? "_" s "_" : s }'
}
# a cell of a file that may be missing
maybe() {	# maybe FUNC FILE [BASELINE]
	if [ -e "$2" ] && { [ $# -lt 3 ] || [ -e "$3" ]; }; then
		printf ' %s |' "$("$@")"
	else
		printf ' – |'
	fi
}

echo "# $title"
echo
echo "Model under test: \`$model\`. Micro-F1 in %, mean ± sd over the runs;"
echo "each difference is the pre-trained arm's minus the baseline's, run by"
echo "run on the same splits, with its 95% paired t-interval: **bold** where"
echo "the interval is above 0 (a gain), _italic_ where it is below 0 (a loss)."
echo "Arms: $(for a in pre $arms; do printf '%s = %s; ' "$a" "$(name "$a")"; done)see"
echo "pipelines/README.md (The transfer benchmark) for what each one is."
echo
printf '| dataset | protocol | pre |'
for a in $arms; do printf ' %s |' "$a"; done
for a in $arms; do printf ' pre − %s |' "$a"; done
echo
printf '|---|---|---|'
for a in $arms; do printf -- '---|---|'; done
echo
tuned=
for c in "$@"; do
	f=$dir/$c
	b=$(basename "$c" .gs)
	kind=${c%%/*} set_=${b%%--*} proto=${b##*--}
	[ "$kind" = pred ] || tuned="$tuned $c"
	printf '| %s | %s | %s |' "$set_" "$(pname "$kind" "$proto")" "$(cell "$f")"
	for a in $arms; do maybe cell "$dir/$kind/$set_--$a--$proto.gs"; done
	for a in $arms; do maybe diff_cell "$f" "$dir/$kind/$set_--$a--$proto.gs"; done
	echo
done
# fine-tuning against the probe of the same arm, on the same items: the
# protocols they share (few, folds)
rows=
for c in $tuned; do
	b=$(basename "$c" .gs)
	set_=${b%%--*} proto=${b##*--}
	[ -e "$dir/pred/$set_--pre--$proto.gs" ] || continue
	if [ -z "$rows" ]; then
		echo
		echo "Fine-tuning against the linear probe of the same arm, on the same"
		echo "test items run by run (the probe's split; the fine-tuning's"
		echo "validation items are drawn from its training items): the difference"
		echo "is the fine-tuning's minus the probe's, with its 95% paired t-interval."
		echo
		echo "| dataset | protocol | pre, tuned | pre, probe | tuned − probe | rand, tuned | rand, probe | tuned − probe |"
		echo "|---|---|---|---|---|---|---|---|"
		rows=1
	fi
	printf '| %s | %s |' "$set_" "$(pname tune "$proto")"
	for a in pre rand; do
		t=$dir/tune/$set_--$a--$proto.gs p=$dir/pred/$set_--$a--$proto.gs
		maybe cell "$t"
		maybe cell "$p"
		maybe diff_cell "$t" "$p"
	done
	echo
done
