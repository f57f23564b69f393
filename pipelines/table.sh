#!/bin/sh
# table.sh - a results table in markdown: our micro-F1 (mean ± std over
# the runs, in %) beside the paper's, then the provenance of every cell.
#   sh table.sh table1|table2 DIR TITLE CONFIG...
# DIR holds pred/DS--ARM.txt (gcn-adapt) and score/DS--ARM.tsv (evalf1
# --format tsv); cells without a score file are marked "not run".
set -eu
[ $# -ge 3 ] || { echo "usage: sh table.sh table1|table2 DIR TITLE [CONFIG...]" >&2; exit 2; }
here=$(dirname "$0")
. "$here/prov.sh"
which=$1 dir=$2 title=$3
shift 3
case $which in
table1) rows="base pre attr base-attr pre-attr" ;;
table2) rows="pre-rec pre-rank pre-cluster pre" ;;
*) echo "table.sh: unknown table '$which'" >&2; exit 2 ;;
esac
sets="cora pubmed ml-100k ml-1m imdb-multi imdb-binary"
label() {
	case $1 in
	base) echo "Baseline (no pre-train)" ;;
	pre) echo "Pre-train (all tasks)" ;;
	attr) echo "Baseline (attr. only)" ;;
	base-attr) echo "Baseline (no pre-train + attr.)" ;;
	pre-attr) echo "Pre-train (all tasks + attr.)" ;;
	pre-rec) echo "Pre-train (reconstruct)" ;;
	pre-rank) echo "Pre-train (rank)" ;;
	pre-cluster) echo "Pre-train (cluster)" ;;
	esac
}
name() {
	case $1 in
	cora) echo Cora ;; pubmed) echo Pubmed ;; ml-100k) echo ML-100K ;;
	ml-1m) echo ML-1M ;; imdb-multi) echo IMDB-M ;; imdb-binary) echo IMDB-B ;;
	esac
}
# the paper's value of ROW on column I (1..6), or "-"
paper() { awk -F '\t' -v r="$1" -v i="$2" '$1 == r { split($(i + 1), a, " ");
	print (a[1] == "-" ? "-" : a[1] " ± " a[2]) }' "$here/paper.tsv"; }

echo "# $title"
echo
echo "Micro-F1 (%), mean ± standard deviation over the runs: ours, then the paper's in"
if [ "$which" = table1 ]; then
	echo "parentheses. Structure only in the upper rows (the four node features), node"
	echo "attributes added in the lower ones; \"/\" where the paper has no such row."
else
	echo "parentheses. Structure only (the four node features); the encoder of a row"
	echo "pre-trained on the one task it names, the last on all three."
fi
echo
# the dataset columns' header and rule, from name()
cols='' rule=''
for s in $sets; do
	cols="$cols $(name "$s") |" rule="$rule---|"
done
echo "| Method |$cols"
echo "|---|$rule"
for r in $rows; do
	line="| $(label "$r") |"
	i=0
	for s in $sets; do
		i=$((i + 1))
		p=$(paper "$r" $i)
		f="$dir/score/$s--$r.tsv"
		if [ "$p" = - ]; then
			cell="/"
		elif [ -s "$f" ]; then
			cell=$(awk -F '\t' '$1 == "mean" { m = $3 } $1 == "std" { s = $3 }
				$1 ~ /^[0-9]+$/ { n++ }
				END { printf "%.1f ± %.1f", 100 * m, 100 * s; if (n != 10) printf " [%d runs]", n }' "$f")
			cell="$cell ($p)"
		else
			cell="not run ($p)"
		fi
		line="$line $cell |"
	done
	echo "$line"
done
echo
echo "Each cell is \`evalf1\` over the test predictions of \`gcn-adapt\`;"
echo "the files are in \`$dir/pred\` and \`$dir/score\`."
# a reference value "MEAN STD [NOTE...]" or "-" as a table cell
refcell() {
	[ "$1" != - ] || { echo "–"; return; }
	m=$1 sd=$2
	shift 2
	echo "$m ± $sd${*:+ $*}"
}
# table1: the PyTorch references of ../shared/bench, the floor to beat
if [ "$which" = table1 ] && [ -f "$here/reference.tsv" ]; then
	echo
	echo "## The floor: PyTorch references"
	echo
	echo "The downstream protocol in PyTorch (\`../shared/bench\`; measured there, not"
	echo "here), structure only, from \`pipelines/reference.tsv\`; each row is to be"
	echo "compared with our row it names."
	echo
	echo "| Reference | ours |$cols"
	echo "|---|---|$rule"
	while IFS='	' read -r r lab src c1 c2 c3 c4 c5 c6; do
		case $r in '#'*|'') continue ;; esac
		line="| $lab (\`$src\`) | $(label "$r") |"
		for c in "$c1" "$c2" "$c3" "$c4" "$c5" "$c6"; do
			line="$line $(refcell $c) |"
		done
		echo "$line"
	done <"$here/reference.tsv"
fi

# A dataset whose node attributes are partial (graph-import writes
# attributed_nodes=K into the graph record when only K nodes have them) gets
# a note, when a cell with attributes was run on it.
data=$(cd "${DATA:-$here/../data}" 2>/dev/null && pwd) || data=${DATA:-$here/../data}
nodefeat=$here/../bin/nodefeat
notes=
attr_sets=
[ "$which" != table1 ] || attr_sets=$sets
for s in $attr_sets; do
	ls "$dir/score/$s--"*attr.tsv >/dev/null 2>&1 && [ -f "$data/$s.gs" ] || continue
	# nodefeat -t writes the graph record's header first; awk stops there
	k=$("$nodefeat" -q -t "$data/$s.gs" 2>/dev/null | awk '/^@graph / {
		for (i = 2; i <= NF; i++) { j = index($i, "="); a[substr($i, 1, j - 1)] = substr($i, j + 1) }
		if ("attributed_nodes" in a && a["attributed_nodes"] + 0 < a["nodes"] + 0)
			print a["attributed_nodes"], a["nodes"]
		exit }') || true
	[ -n "$k" ] || continue
	notes="$notes- $(name "$s"): the data (\`$data/$s.gs\`) has node attributes for only
  ${k% *} of ${k#* } nodes (\`attributed_nodes\` in its graph record), the others are
  zero; its attribute cells measure that, not the paper's setting
  (see \`data/README.md\`).
"
done
if [ -n "$notes" ]; then
	echo
	echo "## Notes on the data"
	echo
	printf '%s' "$notes"
fi
echo
echo "## Provenance"
echo
echo "Programs, versions, seeds and command lines of every stage that made these"
echo "cells (the \`pg\` records the predictions carry), with the configurations;"
echo "\`adapt.sh\` runs \`gcn-adapt\` once per run (\`--first-run R --runs 1\`, R = 0, 1, ...);"
echo "listed once here:"
echo
files=
for r in $rows; do
	for s in $sets; do
		files="$files $dir/pred/$s--$r.txt"
	done
done
# shellcheck disable=SC2086 # the file names hold no blanks (Makefile)
provenance "$@" -- $files
