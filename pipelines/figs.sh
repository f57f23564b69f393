#!/bin/sh
# figs.sh - the paper's Figures 2, 3 and 4 from cached stage files, as
# PNG and SVG (gnuplot) with a markdown caption.
#   sh figs.sh fig2 DIR OUTDIR [CONFIG...]
#       layer weights softmax(psi) per task, from gcn-train's --log
#       DIR/train-all.tsv (best epoch); provenance from DIR/model-all.gs
#   sh figs.sh fig3|fig4 DIR OUTDIR [CONFIG...]
#       Cora micro-F1 against the fix-tune boundary / the share of training
#       labels, from DIR/score/cora--ARM.tsv; provenance from DIR/pred
# Each caption ends with the provenance (prov.sh): the CONFIGs' checksums
# and the pg records of the streams the figure was made from.
set -eu
[ $# -ge 3 ] || { echo "usage: sh figs.sh fig2|fig3|fig4 DIR OUTDIR [CONFIG...]" >&2; exit 2; }
. "$(dirname "$0")/prov.sh"
command -v gnuplot >/dev/null 2>&1 ||
	{ echo "figs.sh: gnuplot not found (Debian package gnuplot-nox)" >&2; exit 1; }
fig=$1 in=$2 out=$3
shift 3
mkdir -p "$out"
dat="$out/$fig.dat"
tmp="$out/.$fig.tmp"

# plot NAME GNUPLOT-BODY: PNG and SVG, each written under a temporary name
plot() {
	for t in png svg; do
		if [ $t = png ]; then term="pngcairo size 800,500 font 'sans,11'"
		else term="svg size 800,500 font 'sans,11'"; fi
		gnuplot -e "set terminal $term; set output '$tmp.$t'" -e "$2" 2>"$tmp.err" ||
			{ sed 's/^/figs.sh: gnuplot: /' "$tmp.err" >&2; exit 1; }
		mv "$tmp.$t" "$out/$1.$t"
	done
	rm -f "$tmp.err"
}

# the caption's provenance section: provenance_md CONFIG... -- STREAM...
provenance_md() {
	echo
	echo "Provenance: programs, versions, seeds and command lines of the stages"
	echo "that made it (the streams' \`pg\` records), with the configurations:"
	echo
	provenance "$@"
}

# mean and std (in %) of a score file, or nothing
score() { [ -s "$1" ] && awk -F '\t' '$1 == "mean" { m = $3 } $1 == "std" { s = $3 }
	END { printf "%.2f %.2f\n", 100 * m, 100 * s }' "$1"; }

case $fig in
fig2)
	log=$in/train-all.tsv
	[ -s "$log" ] || { echo "figs.sh: $log: no training log" >&2; exit 1; }
	# the row of the last best epoch: the kept model's weights.  A resumed
	# run (pipelines/Makefile) redoes the epoch a signal cut short, whose
	# line stays in the log: an epoch's last line supersedes the earlier.
	awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) { h[i] = $i; if ($i == "best") b = i }; next }
		{ if (!($1 in line)) order[++ne] = $1; line[$1] = $0; flag[$1] = $b }
		END {
			for (e = 1; e <= ne; e++) if (flag[order[e]] == 1) row = line[order[e]]
			if (row == "") exit 1
			n = split(row, v, "\t")
			for (i = 1; i <= n; i++)
				if (h[i] ~ /^w_/) { split(h[i], p, "_"); w[p[2], p[3]] = v[i]; if (p[3] > L) L = p[3] }
			printf "# layer\trec\trank\tcluster\n"
			for (l = 1; l <= L; l++) printf "%d\t%s\t%s\t%s\n", l, w["rec", l], w["rank", l], w["cluster", l]
		}' "$log" >"$dat" || { echo "figs.sh: $log: no best epoch with layer weights" >&2; exit 1; }
	plot fig2 "set style data histograms; set style histogram clustered gap 1;
		set style fill solid 0.8 border -1; set key outside top center horizontal; set yrange [0:*];
		set xlabel 'GNN block l'; set ylabel 'softmax(psi)_l';
		set title 'Layer weights of each pre-training task';
		plot '$dat' using 2:xtic(1) title 'link reconstruction',
		     '' using 3 title 'centrality ranking', '' using 4 title 'cluster preserving'"
	{
		echo "![Figure 2: layer weights](fig2.png)"
		echo
		echo "**Figure 2.** The layer weights softmax(ψ)_l of each pre-training task over"
		echo "the GNN blocks l = 1..L of the kept (best validation) model, read from"
		echo "\`$log\`. The paper finds cluster preserving on the top block, link"
		echo "reconstruction on the middle one and ranking on the bottom one. Ours:"
		echo
		echo '| block | rec | rank | cluster |'
		echo '|---|---|---|---|'
		awk -F '\t' 'NR > 1 { printf "| %s | %.3f | %.3f | %.3f |\n", $1, $2, $3, $4 }' "$dat"
		provenance_md "$@" -- "$in/model-all.gs"
	} >"$tmp.md"
	mv "$tmp.md" "$out/fig2.md"
	;;
fig3)
	printf '# boundary\tlabel\tpre\tpre_std\trand\trand_std\n' >"$dat"
	i=0 preds=
	for k in m1 0 1 2 3; do
		p=$(score "$in/score/cora--fz$k-pre.tsv" || true)
		r=$(score "$in/score/cora--fz$k-rand.tsv" || true)
		[ -n "$p" ] && [ -n "$r" ] || continue
		preds="$preds $in/pred/cora--fz$k-pre.txt $in/pred/cora--fz$k-rand.txt"
		case $k in m1) lab="none" ;; 0) lab="E" ;; *) lab="E+$k" ;; esac
		printf '%d\t%s\t%s\t%s\n' $i "$lab" "$(echo $p | tr ' ' '\t')" "$(echo $r | tr ' ' '\t')" >>"$dat"
		i=$((i + 1))
	done
	[ $i -gt 0 ] || { echo "figs.sh: no fig3 scores in $in/score" >&2; exit 1; }
	plot fig3 "set key bottom right; set xlabel 'fixed below the boundary';
		set ylabel 'Cora micro-F1 (%)'; set title 'Cora, structure only: fix-tune boundary';
		set offsets 0.3, 0.3, 0, 0; set grid y;
		plot '$dat' using 1:3:4:xtic(2) with yerrorlines lw 2 title 'pre-trained initial values',
		     '' using 1:5:6 with yerrorlines lw 2 title 'random initial values above the boundary'"
	{
		echo "![Figure 3: fix-tune boundary](fig3.png)"
		echo
		echo "**Figure 3.** Cora micro-F1 (structure only, mean ± std over the runs) against"
		echo "the fix-tune boundary: \"none\" trains E and every block, \"E\" fixes the"
		echo "embedding (the default), \"E+k\" also the bottom k blocks. Above the boundary"
		echo "the blocks start from the pre-trained values or from random ones"
		echo "(\`gcn-adapt --random-above\`); below it they are always pre-trained. The"
		echo "paper finds E+1 best and the pre-trained start better everywhere. At the"
		echo "last boundary every block is fixed, so nothing of the encoder is drawn"
		echo "afresh: the two arms run the same pre-trained encoder and differ only in"
		echo "the random draws of the head and of dropout, and their gap there shows"
		echo "the run-to-run noise. Two points are Table 1's Cora cells, copied, not"
		echo "rerun: \"E\" pre-trained is the pre-trained encoder as Table 1 adapts it,"
		echo "and \"none\" with random values above the boundary is the baseline without"
		echo "pre-training (gcn-adapt makes the same draws and predictions for both). Ours:"
		echo
		echo '| boundary | pre-trained | random above |'
		echo '|---|---|---|'
		awk -F '\t' 'NR > 1 { printf "| %s | %.1f ± %.1f | %.1f ± %.1f |\n", $2, $3, $4, $5, $6 }' "$dat"
		# shellcheck disable=SC2086 # the file names hold no blanks (Makefile)
		provenance_md "$@" -- $preds
	} >"$tmp.md"
	mv "$tmp.md" "$out/fig3.md"
	;;
fig4)
	printf '# fraction\tpre\tpre_std\tbase\tbase_std\n' >"$dat"
	n=0 preds=
	for f in 1 2 3 4 5 6 7 8 9 10; do
		p=$(score "$in/score/cora--tf$f-pre.tsv" || true)
		b=$(score "$in/score/cora--tf$f-base.tsv" || true)
		[ -n "$p" ] && [ -n "$b" ] || continue
		preds="$preds $in/pred/cora--tf$f-pre.txt $in/pred/cora--tf$f-base.txt"
		printf '%d\t%s\t%s\n' $((f * 10)) "$(echo $p | tr ' ' '\t')" "$(echo $b | tr ' ' '\t')" >>"$dat"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || { echo "figs.sh: no fig4 scores in $in/score" >&2; exit 1; }
	plot fig4 "set key bottom right; set xlabel 'training labels used (%)';
		set ylabel 'Cora micro-F1 (%)'; set title 'Cora, structure only: share of training labels';
		set xrange [5:105]; set grid y;
		plot '$dat' using 1:2:3 with yerrorlines lw 2 title 'pre-trained',
		     '' using 1:4:5 with yerrorlines lw 2 title 'no pre-training'"
	{
		echo "![Figure 4: share of training labels](fig4.png)"
		echo
		echo "**Figure 4.** Cora micro-F1 (structure only, mean ± std over the runs)"
		echo "against the share of the 20 training labels per class that the loss sees"
		echo "(\`gcn-adapt --train-fraction\`; validation and test nodes stay the same)."
		echo "The paper finds pre-training better at every share. The 100% points are"
		echo "Table 1's Cora cells (pre-trained, no pre-training), copied, not rerun. Ours:"
		echo
		echo '| labels used | pre-trained | no pre-training |'
		echo '|---|---|---|'
		awk -F '\t' 'NR > 1 { printf "| %d%% | %.1f ± %.1f | %.1f ± %.1f |\n", $1, $2, $3, $4, $5 }' "$dat"
		# shellcheck disable=SC2086 # the file names hold no blanks (Makefile)
		provenance_md "$@" -- $preds
	} >"$tmp.md"
	mv "$tmp.md" "$out/fig4.md"
	;;
*) echo "figs.sh: unknown figure '$fig'" >&2; exit 2 ;;
esac
