#!/bin/sh
# features.sh - the feature-stage comparison (issue 30): the paper's four
# node features against a second feature set (RWSE: random-walk return
# probabilities, nodefeat --set rwse), each pre-trained with the default
# configuration and adapted to Cora and IMDB-BINARY beside its own
# no-pretrain baseline.  Micro-F1 (%), mean ± std over the runs, then the
# provenance of every cell.
#   sh features.sh DIR TITLE CONFIG...
# DIR holds score/DS--ARM.tsv (evalf1 --format tsv) and pred/DS--ARM.txt.
# SCORES (environment), a directory of the same score files: where DIR lacks
# a cell, its scores are taken from there (the paper's four's cells are
# Table 1's, kept in results/scores/), and the table says so.
set -eu
[ $# -ge 2 ] || { echo "usage: sh features.sh DIR TITLE [CONFIG...]" >&2; exit 2; }
here=$(dirname "$0")
. "$here/prov.sh"
dir=$1 title=$2
shift 2
sets="cora imdb-binary"
echo "# $title"
echo
echo "Micro-F1 (%), mean ± standard deviation over the runs, structure only. Each"
echo "feature set is the model's input both in pre-training (computed on every masked"
echo "graph) and downstream; its baseline is the same architecture from random values"
echo "on the same features."
if [ -n "${SCORES:-}" ]; then
	echo "Cells that this build did not run (the paper's four's, Table 1's cells of the"
	echo "same models and settings) come from \`${SCORES#"$here"/}\`."
fi
echo
echo "| Features | Method | Cora | IMDB-B |"
echo "|---|---|---|---|"
for fs in paper rwse; do
	case $fs in
	paper) name="the paper's four (degree, core, CI, clustering)"; b=base p=pre ;;
	rwse) name="RWSE (return probabilities, k = 1..16)"; b=rwse-base p=rwse-pre ;;
	esac
	for arm in $b $p; do
		case $arm in *base) m="Baseline (no pre-train)" ;; *) m="Pre-train (all tasks)" ;; esac
		line="| $name | $m |"
		for s in $sets; do
			line="$line $(cell_f1 "$dir" "$s--$arm") |"
		done
		echo "$line"
	done
done
echo
echo "## Provenance"
echo
files=""
for s in $sets; do
	for a in base pre rwse-base rwse-pre; do
		files="$files $dir/pred/$s--$a.txt"
	done
done
# shellcheck disable=SC2086
provenance "$@" -- $files
