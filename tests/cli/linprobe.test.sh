# linprobe.test.sh - the linear probe (linprobe) and the paired comparison
# of evalf1 --baseline (sourced by run.sh with lib.sh: expect, expect_err,
# check, same).  Bad input and misuse: tests/badinput/cases.tsv.
T="$TMPD/linprobe"
mkdir -p "$T"
PY=/usr/bin/python3	# Debian's, with python3-sklearn where installed

# planted MODE SEED: one graph of 300 nodes without edges, an 'embedding' of
# 6 columns and a 'label' of 3 classes (nodes 0..4: none, -1).  MODE
# planted: node i's vector is 3 in column (i mod 3), 0 elsewhere, plus
# uniform noise in [-0.5, 0.5], and its class i mod 3 (a linear classifier
# separates them); random: the same vectors, a class drawn apart from them;
# noise: the classes i mod 3, the vectors noise alone.
planted() {
	awk -v mode="$1" -v seed="$2" 'BEGIN {
		srand(seed); n = 300; d = 6
		print "##gnnstream 1"
		printf "@graph id=0 nodes=%d edges=0 dataset=planted\n", n
		printf "@tensor id=0 name=embedding rows=%d cols=%d type=f64\n", n, d
		for (i = 0; i < n; i++) {
			for (j = 0; j < d; j++)
				printf "%s%.6f", j ? " " : "",
				    (mode != "noise" && j == i % 3 ? 3 : 0) + rand() - 0.5
			print ""
		}
		printf "@tensor id=0 name=label rows=%d cols=1 type=i32\n", n
		for (i = 0; i < n; i++)
			print (i < 5 ? -1 : mode == "random" ? int(rand() * 3) : i % 3)
		print "@end" }'
}
# mean_f1 TSV: the mean micro-F1 of evalf1 --format tsv
mean_f1() { awk '$1 == "mean" { print $2 }' "$1"; }

planted planted 1 >"$T/planted.txt"
planted random 2 >"$T/random.txt"

# a planted problem is solved near-perfectly, random labels near chance (1/3)
expect 0 "linprobe -q $T/planted.txt >$T/planted.gs"
expect 0 "evalf1 --format tsv $T/planted.gs >$T/planted.tsv"
check "[ \$(awk '\$1 == \"mean\" { print (\$2 >= 0.98) }' $T/planted.tsv) = 1 ]" \
	"a planted problem: mean micro-F1 $(mean_f1 "$T/planted.tsv") >= 0.98"
check "[ \$(awk '\$1 ~ /^[0-9]+\$/' $T/planted.tsv | wc -l) = 10 ]" "ten runs by default"
# 60 test nodes a run: round(0.2 x 98) x 2 + round(0.2 x 99) (the 5 without a class untested)
check "[ \$(awk '\$1 ~ /^[0-9]+\$/ && \$2 != 60' $T/planted.tsv | wc -l) = 0 ]" \
	"each run tests 20% of each class, nodes without a class left out"
expect 0 "linprobe -q $T/random.txt | evalf1 --format tsv >$T/random.tsv"
check "[ \$(awk '\$1 == \"mean\" { print (\$2 > 0.2 && \$2 < 0.47) }' $T/random.tsv) = 1 ]" \
	"random labels: mean micro-F1 $(mean_f1 "$T/random.tsv") near chance"

# the output: gcn-adapt's columns, the attributes of what was probed
expect 0 "linprobe -q -t --runs 2 --C 0.5 $T/planted.txt >$T/two.txt"
check "grep -q '^@tensor id=1 name=predictions rows=60 cols=6 type=f64 columns=item,true,pred,score_0,score_1,score_2 ' $T/two.txt" \
	"a predictions record per run, gcn-adapt's columns"
check "grep '^@tensor id=0 name=predictions' $T/two.txt | grep -q ' task=node dataset=planted classes=3 probe=logreg tensor=embedding width=6 C=0.5 split=\"holdout 0.2\" train_labels=235'" \
	"its attributes: what was probed, C, the split"
check "awk '/^@tensor/ { on = /name=predictions/; next } /^@/ { on = 0 } on { s = \$4 + \$5 + \$6; if (s < 0.999999 || s > 1.000001) bad = 1 } END { exit bad }' $T/two.txt" \
	"the class probabilities of each item sum to 1"
check "awk '/^@tensor/ { on = /name=predictions/; last = -1; next } /^@/ { on = 0 } on && \$1 <= last { bad = 1 } on { last = \$1 } END { exit bad }' $T/two.txt" \
	"the test items in ascending order"

# determinism: the same bytes for any -j, and for a repeated run
expect 0 "linprobe -q -j 1 -l 0 $T/planted.txt >$T/j1.gs"
expect 0 "linprobe -q -j 2 -l 0 $T/planted.txt >$T/j2.gs"
same "$T/j1.gs" "$T/j2.gs" "-j 1 and -j 2"
expect 0 "linprobe -q -j 2 -l 0 $T/planted.txt >$T/j2b.gs"
same "$T/j2.gs" "$T/j2b.gs" "a second run"
expect 0 "linprobe -q -l 0 -s 1 $T/planted.txt >$T/s1.gs"
check "! cmp -s $T/j1.gs $T/s1.gs" "another seed, other splits"

# the same labels and seed give the same splits whatever the vectors: the
# --train-per-class: the few-label split (N of each class trained, the
# rest tested); --first-run: runs R.. of a longer set, the same bytes as
# those runs of the whole set
expect 0 "linprobe -q -t --runs 2 --C 0.5 --train-per-class 7 $T/planted.txt >$T/few.txt"
check "[ \$(grep -c '^@tensor id=[01] name=predictions rows=274 .* split=\"7 per class\" train_labels=21' $T/few.txt) = 2 ]" \
	"--train-per-class 7: 21 items trained, the other 274 of the 295 with a class tested"
expect 0 "linprobe -q -t --runs 4 --C 0.5 $T/planted.txt >$T/four.txt"
expect 0 "linprobe -q -t --runs 2 --first-run 2 --C 0.5 $T/planted.txt >$T/last2.txt"
check "[ \"\$(awk '/^@tensor id=[23] name=predictions/ { on = 1; next } /^@/ { on = 0 } on' $T/four.txt | cksum)\" = \
	\"\$(awk '/^@tensor id=[23] name=predictions/ { on = 1; next } /^@/ { on = 0 } on' $T/last2.txt | cksum)\" ] &&
	! grep -q '^@tensor id=[01] ' $T/last2.txt" "--first-run 2 --runs 2: runs 2 and 3 of --runs 4, byte for byte"

# --folds with --first-run and --runs: those folds of the same assignment
expect 0 "linprobe -q -t --folds 5 --C 0.5 $T/planted.txt >$T/f5.txt"
expect 0 "linprobe -q -t --folds 5 --first-run 3 --runs 1 --C 0.5 $T/planted.txt >$T/f5-3.txt"
check "[ \"\$(awk '/^@tensor id=3 name=predictions/ { on = 1; next } /^@/ { on = 0 } on' $T/f5.txt | cksum)\" = \
	\"\$(awk '/^@tensor id=3 name=predictions/ { on = 1; next } /^@/ { on = 0 } on' $T/f5-3.txt | cksum)\" ] &&
	[ \$(grep -c '^@tensor .*name=predictions .*split=\"fold 3 of 5\"' $T/f5-3.txt) = 1 ]" \
	"--folds 5 --first-run 3 --runs 1: fold 3 alone, as the whole set tests it"

# planted vectors against noise, paired by evalf1 --baseline
planted noise 3 >"$T/noise.txt"
expect 0 "linprobe -q -t $T/noise.txt >$T/noise-p.txt"
expect 0 "linprobe -q -t $T/planted.txt >$T/planted-p.txt"
# the runs' test items and classes (text form): "run item class" lines
echo '/^@tensor/ { on = /name=predictions/; r++ } /^@/ { next } on { print r, $1, $2 }' >"$T/items.awk"
check "[ \"\$(awk -f $T/items.awk $T/noise-p.txt | cksum)\" = \"\$(awk -f $T/items.awk $T/planted-p.txt | cksum)\" ]" \
	"two arms on the same labels and seed: the same test items, run by run"
expect 0 "evalf1 --format tsv --baseline $T/noise-p.txt $T/planted-p.txt >$T/gain.tsv"
check "awk -F '\t' '\$2 == \"micro_f1\" && \$3 == 10 && \$8 > 0.3 && \$10 == \"gain\" { ok = 1 } END { exit !ok }' $T/gain.tsv" \
	"the planted vectors' gain over noise: a paired interval above 0"
# the other way round: an interval below 0 is a loss, in every format
# (evalf1 printed "gain no" for one; issue 48)
expect 0 "evalf1 --format tsv --baseline $T/planted-p.txt $T/noise-p.txt >$T/loss.tsv"
check "awk -F '\t' '\$2 == \"micro_f1\" && \$9 < 0 && \$10 == \"loss\" { ok = 1 } END { exit !ok }' $T/loss.tsv" \
	"noise against the planted vectors: a paired interval below 0 is a loss"
expect 0 "evalf1 --baseline $T/planted-p.txt $T/noise-p.txt | grep -q '^  micro-F1 .*\]  loss\$'"
expect 0 "evalf1 --format yaml --baseline $T/planted-p.txt $T/noise-p.txt | grep -q 'micro_f1: .*verdict: loss}'"

# K-fold: gcn-adapt's graph-task folds.  Graphs of 50 nodes, 20 sparse
# (class 0) and 20 dense (class 1); the vector: mean raw degree, or
# --pool none on a one-row tensor edges/nodes
{ dcbm-gen -q -s 1 --count 20 --nodes 50 --mean-degree 4 -t
  dcbm-gen -q -s 2 --count 20 --first-id 20 --nodes 50 --mean-degree 12 -t; } |
	nodefeat -q -t | awk '
	/^@/ && pend != "" { print pend; pend = "" }
	/^@graph/ { id = $2; sub(/id=/, "", id); split($3, a, "="); split($4, b, "=")
		pend = sprintf("@label id=%d name=label value=%d\n@tensor id=%d name=gvec rows=1 cols=1 type=f64\n%.6f",
			id, id + 0 >= 20, id, b[2] / a[2]) }
	/^@end/ { print "@end"; next } { print }' >"$T/graphs.txt"
expect 0 "linprobe -q --task graph --tensor features_raw --folds 5 $T/graphs.txt | evalf1 --format tsv >$T/g.tsv"
check "[ \$(awk '\$1 == \"mean\" { print (\$2 >= 0.95) }' $T/g.tsv) = 1 ]" \
	"graph task, mean-pooled raw degrees: dense from sparse ($(mean_f1 "$T/g.tsv"))"
check "[ \$(awk '\$1 ~ /^[0-9]+\$/ && \$2 == 8' $T/g.tsv | wc -l) = 5 ]" "five folds of 8 graphs"
expect 0 "linprobe -q --task graph --tensor gvec --pool none --folds 5 $T/graphs.txt | evalf1 --format tsv >$T/gn.tsv"
check "[ \$(awk '\$1 == \"mean\" { print (\$2 >= 0.95) }' $T/gn.tsv) = 1 ]" \
	"graph task, --pool none: a graph's own vector ($(mean_f1 "$T/gn.tsv"))"
expect 0 "linprobe -q -t --task graph --tensor features --pool meanmax --folds 2 --C 1 $T/graphs.txt >$T/mm.txt"
check "grep -q 'width=8 pool=meanmax' $T/mm.txt" "--pool meanmax: the mean, then the max"
# the folds are gcn-adapt's: the same test graphs in runs 0 and 1
expect 0 "nodefeat -q $TOP/data/imdb-binary.gs | linprobe -q -t --task graph --tensor features --folds 10 --C 1 >$T/imdb-lp.txt"
expect 0 "gcn-adapt -q -j 2 -t --task graph --runs 2 --epochs 1 --precision fp32 $TOP/data/imdb-binary.gs >$T/imdb-ad.txt"
check "[ -n \"\$(awk -f $T/items.awk $T/imdb-ad.txt)\" ] && [ \"\$(awk -f $T/items.awk $T/imdb-ad.txt | cksum)\" = \"\$(awk -f $T/items.awk $T/imdb-lp.txt | awk '\$1 <= 2' | cksum)\" ]" \
	"linprobe --folds 10 tests the graphs gcn-adapt's graph task tests, run by run"

# gcn-embed | linprobe | evalf1: the shipped encoder's embeddings
dcbm-gen -q -s 3 --count 1 --nodes 200 --clusters 3 >"$T/g200.gs"
expect 0 "gcn-embed -q $T/g200.gs | linprobe -q --label cluster --runs 2 --C 1 | evalf1 --format tsv >$T/emb.tsv"
check "[ \$(awk '\$1 ~ /^[0-9]+\$/' $T/emb.tsv | wc -l) = 2 ]" "gcn-embed | linprobe | evalf1: two runs scored"

# the independent check: scikit-learn on the same splits at the same C
if [ -x "$PY" ] && "$PY" -c 'import numpy, sklearn' 2>/dev/null; then
	expect 0 "$PY $TOP/tests/cli/linprobe_sk.py make $T/sk.txt"
	expect 0 "linprobe -q -t $T/sk.txt >$T/sk-p.txt"
	check "$PY $TOP/tests/cli/linprobe_sk.py check $T/sk.txt $T/sk-p.txt embedding label >$T/sk.out" \
		"scikit-learn's LogisticRegression on linprobe's splits: $(cat "$T/sk.out" 2>/dev/null)"
else
	echo "SKIP: linprobe.test.sh: no $PY with numpy and scikit-learn (Debian: python3-sklearn): the check against LogisticRegression did not run"
fi

# evalf1 --baseline by hand: three runs of 4 items
runs() {	# runs 'PRED0' 'PRED1' 'PRED2': true classes 0 1 1 0 at items 0..3
	echo '##gnnstream 1'
	r=0
	for p in "$@"; do
		echo "@tensor id=$r name=predictions rows=4 cols=3 type=i32 columns=item,true,pred classes=2"
		set -- $p
		printf '0 0 %s\n1 1 %s\n2 1 %s\n3 0 %s\n' "$1" "$2" "$3" "$4"
		r=$((r + 1))
	done
	echo '@end'
}
# main: 4/4, 3/4, 2/4 right; baseline: 3/4, 1/4, 2/4: differences 1/4, 2/4,
# 0: mean 0.25, sd 0.25, t(0.975, 2) = 4.302653 (tables): half-width
# 4.302653 x 0.25 / sqrt(3) = 0.621034, [-0.371034, 0.871034]
runs '0 1 1 0' '0 1 0 0' '1 1 0 0' >"$T/main.txt"
runs '0 1 1 1' '1 0 1 1' '0 0 0 0' >"$T/base.txt"
expect 0 "evalf1 --format tsv --baseline $T/base.txt $T/main.txt >$T/pair.tsv"
check "grep -q '^$T/base.txt	micro_f1	3	0.750000	0.500000	0.250000	0.250000	-0.371034	0.871034	no clear difference\$' $T/pair.tsv" \
	"the paired t-interval by hand: $(grep micro "$T/pair.tsv")"
check "[ \"\$(head -n 1 $T/pair.tsv)\" = \"\$(printf 'baseline\tmetric\truns\tmean\tbaseline_mean\tdiff_mean\tdiff_sd\tci95_low\tci95_high\tverdict')\" ]" \
	"--format tsv: the paired table alone"
expect 0 "evalf1 --baseline $T/base.txt $T/main.txt >$T/pair.table"
check "grep -q 'micro-F1    75.00     50.00   +25.00    25.00   \[-37.10, +87.10\]  no' $T/pair.table" \
	"the table: the same in percent"
expect 0 "evalf1 --format yaml --baseline $T/base.txt --baseline $T/main.txt $T/main.txt >$T/pair.yaml"
check "grep -q 'ci95: \[-0.371034, 0.871034\], verdict: no clear difference' $T/pair.yaml && grep -q 'diff_mean: 0.000000, diff_sd: 0.000000' $T/pair.yaml" \
	"yaml, two baselines"
# one run: the difference without an interval
runs '0 1 1 0' >"$T/main1.txt"
runs '0 1 1 1' >"$T/base1.txt"
expect 0 "evalf1 --baseline $T/base1.txt $T/main1.txt >$T/one.table"
check "grep -q 'one run: no interval' $T/one.table" "one run: said, no interval"
expect 0 "evalf1 --format tsv --baseline $T/base1.txt $T/main1.txt >$T/one.tsv"
check "grep -q '	1	1.000000	0.750000	0.250000	nan	nan	nan	n/a\$' $T/one.tsv" "one run in tsv: nan, n/a"
# splits that differ are refused
sed 's/^2 1 /5 1 /' "$T/base.txt" >"$T/moved.txt"
expect_err 1 "evalf1 --baseline $T/moved.txt $T/main.txt" "not the same splits"
sed '2,$s/^0 0 /0 1 /' "$T/base.txt" >"$T/reclass.txt"
expect_err 1 "evalf1 --baseline $T/reclass.txt $T/main.txt" "not the same splits"
runs '0 1 1 1' '1 0 1 1' >"$T/short.txt"
expect_err 1 "evalf1 --baseline $T/short.txt $T/main.txt" "run 2 is in one input only"
sed 's/classes=2/classes=3/' "$T/base.txt" >"$T/other.txt"
expect_err 1 "evalf1 --baseline $T/other.txt $T/main.txt" "3 classes; the main input's: task '', 2 classes"
sed 's/classes=2/classes=2 dataset=other/' "$T/base.txt" >"$T/named.txt"
expect 0 "evalf1 --format tsv --baseline $T/named.txt $T/main.txt >$T/named.tsv"
check "grep -q \"dataset 'other', the main input's '': paired on their items\" $LIB_ERR && [ \$(wc -l <$LIB_ERR) = 1 ]" \
	"datasets named differently: paired on the items, said in one line"
expect_err 1 "evalf1 --baseline $T/nonexistent.txt $T/main.txt" "nonexistent.txt"
