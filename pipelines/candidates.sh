#!/bin/sh
# candidates.sh - a candidate's screen (candidates.mk):
#   sh candidates.sh screen CAND NAME [REF]
# trains nothing: the model CAND/NAME/model.gs is there.  Its transfer
# screen is made in CAND/NAME (the benchmark's few-label node probes and
# graph folds, transfer.mk with BUILD=CAND/NAME), and its table written to
# CAND/NAME/screen.md.  With REF, a candidate of the same width and
# feature stage whose screen is done, the arms that do not depend on the
# model under test (the random network's draws, the features, the
# hand-made set, the datasets) are copied from REF's instead of computed
# again (the random network is the same: gcn-embed --no-pretrain draws the
# encoder's values first, whatever objectives the model has), and REF's
# own pre-trained arm is the table's arm "ref", paired like the others.
# Environment (candidates.mk): MAKE, CAND_NODE, and what transfer.mk takes.
set -eu
[ "${1:-}" = screen ] && [ $# -ge 3 ] || {
	echo "usage: sh candidates.sh screen CAND NAME [REF]" >&2
	exit 2
}
cand=$2 name=$3 ref=${4:-}
d=$cand/$name
mkdir -p "$d/transfer/data" "$d/transfer/vec" "$d/transfer/pred" "$d/vars"
arms="rand feat featlog refex"
if [ -n "$ref" ]; then
	r=$cand/$ref
	[ -s "$r/screen.md" ] || { echo "candidates.sh: $r: no screen yet" >&2; exit 1; }
	# the reference's variables first, the same values: make keeps them
	# (and their dates), so that the copies below are up to date
	cp -p "$r"/vars/* "$d/vars/"
	for f in "$r"/transfer/data/*.gs "$r"/transfer/vec/*--rand-*.gs \
		"$r"/transfer/vec/*--feat*.gs "$r"/transfer/vec/*--refex.gs \
		"$r"/transfer/pred/*--rand--*.gs "$r"/transfer/pred/*--feat*--*.gs \
		"$r"/transfer/pred/*--refex--*.gs; do
		[ -e "$f" ] || continue
		t=$d/transfer/${f#"$r"/transfer/}
		[ -e "$t" ] || cp "$f" "$t"
	done
	for f in "$r"/transfer/pred/*--pre--*.gs; do
		b=$(basename "$f")
		cp "$f" "$d/transfer/pred/${b%%--pre--*}--ref--${b#*--pre--}"
	done
	# newer than the model under test, which the random arm's rule names
	find "$d/transfer" -type f -exec touch {} +
	arms="rand featlog refex ref"
fi
$MAKE -C "$(dirname "$0")" transfer BUILD="$d" RESULTS="$d" TR_MODEL="$(cd "$d" && pwd)/model.gs" \
	TR_NODE="$CAND_NODE" TR_MANY= TR_TUNE=
TR_TABLE_ARMS=$arms BIN=${BIN:-} sh "$(dirname "$0")/transfer-table.sh" "$d/transfer" \
	"Screen of candidate $name${ref:+ (ref = candidate $ref)}" "$name/model.gs" >"$d/screen.md.tmp"
mv "$d/screen.md.tmp" "$d/screen.md"
