#!/bin/sh
# transfer-table.sh - the transfer benchmark's table (transfer.mk): for each
# dataset and protocol, every arm's micro-F1 (mean ± sd over the runs) and
# the pre-trained arm's paired difference to each baseline with its 95%
# t-interval (evalf1 --baseline), a gain where the interval is above 0.
#   sh transfer-table.sh DIR TITLE MODEL    markdown on stdout
# DIR holds pred/SET--ARM--PROTO.gs (the probe) and tune/SET--ARM.gs (the
# fine-tuning); MODEL is the model under test, named in the header.
set -eu
[ $# -eq 3 ] || { echo "usage: sh transfer-table.sh DIR TITLE MODEL" >&2; exit 2; }
dir=$1 title=$2 model=$3
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
pname() {
	case $1 in
	few) echo "probe, 20 a class" ;;
	many) echo "probe, 80/20" ;;
	folds) echo "probe, 10 folds" ;;
	tune) echo "fine-tuning" ;;
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
		awk -F '\t' '$2 == "micro_f1" { g = $10 == "yes"; l = $10 == "no" && $9 < 0
			s = sprintf("%+.1f [%+.1f, %+.1f]", 100 * $6, 100 * $8, 100 * $9)
			printf "%s", g ? "**" s "**" : l ? "_" s "_" : s }'
}

echo "# $title"
echo
echo "Model under test: \`$model\`. Micro-F1 in %, mean ± sd over the runs;"
echo "each difference is the pre-trained arm's minus the baseline's, run by"
echo "run on the same splits, with its 95% paired t-interval: **bold** where"
echo "the interval is above 0 (a gain), _italic_ where it is below 0 (a loss)."
echo "Arms: $(for a in pre $arms; do printf '%s = %s; ' "$a" "$(name $a)"; done)see"
echo "pipelines/README.md (The transfer benchmark) for what each one is."
echo
printf '| dataset | protocol | pre |'
for a in $arms; do printf ' %s |' "$a"; done
for a in $arms; do printf ' pre − %s |' "$a"; done
echo
printf '|---|---|---|'
for a in $arms; do printf -- '---|---|'; done
echo
for f in "$dir"/pred/*--pre--*.gs "$dir"/tune/*--pre.gs; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .gs)
	set_=${b%%--*}
	case $f in
	*/tune/*) proto=tune; at() { echo "$dir/tune/$set_--$1.gs"; } ;;
	*) proto=${b##*--}; at() { echo "$dir/pred/$set_--$1--$proto.gs"; } ;;
	esac
	printf '| %s | %s | %s |' "$set_" "$(pname "$proto")" "$(cell "$f")"
	for a in $arms; do
		g=$(at "$a")
		if [ -e "$g" ]; then printf ' %s |' "$(cell "$g")"; else printf ' – |'; fi
	done
	for a in $arms; do
		g=$(at "$a")
		if [ -e "$g" ]; then printf ' %s |' "$(diff_cell "$f" "$g")"; else printf ' – |'; fi
	done
	echo
done
