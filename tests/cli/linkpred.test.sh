# linkpred.test.sh - gcn-adapt --task linkpred (link prediction) and
# evalf1's AUC and average precision (sourced by run.sh with lib.sh).  The
# split and the scores are checked by tests/cli/linkpred_ref.py, plain
# Python written apart from the C code.  Bad input and misuse:
# tests/badinput/cases.tsv (the ga-lp-* and ev-auc-* rows).
T="$TMPD/linkpred"
mkdir -p "$T"
REF="$TOP/tests/cli/linkpred_ref.py"
PY=""
for p in /usr/bin/python3 python3; do
	command -v "$p" >/dev/null 2>&1 && { PY=$p; break; }
done
# py DESCRIPTION ARGS...: a check of linkpred_ref.py, its output on failure
py() {
	_d=$1
	shift
	if _o=$("$PY" "$REF" "$@" 2>&1); then lib_ok; else lib_bad "$_d: $(echo "$_o" | tail -n 3)"; fi
}

dcbm-gen -q -s 2 --count 12 --nodes 60..120 | centrality -q |
	gcn-train -q -j 2 --hidden 16 --epochs 2 --batch 4 --validation 2 -o "$T/model.gs"
# 300 nodes, 932 edges: 47 validation and 93 test edges at the defaults
dcbm-gen -q -s 5 --count 1 --nodes 300 --clusters 3 --p-div-q 6 -t >"$T/g.txt"
m=$(awk '/^@graph/ { sub(/.*edges=/, ""); print $1 + 0 }' "$T/g.txt")
# fp32: auto chooses by a timing, which a loaded machine can change
A="-j 2 --precision fp32 --task linkpred --model $T/model.gs --runs 3 -s 1 --epochs 30 --patience 10"

# the feature stage is given the graph the encoder sees: nodefeat, its
# output kept (the first graph is the stage's probe of the whole graph,
# for its width; then one per run)
expect 0 "gcn-adapt -q $A --features 'nodefeat -t | tee -a $T/seen.txt' -t -o $T/lp.txt $T/g.txt"
check "[ \$(grep -c '^@tensor .*name=predictions rows=186 cols=8 type=f64 columns=item,u,v,true,pred,score_0,score_1,score .*task=linkpred .*classes=2 .*pairs=1584,94,186 .*val_auc=' $T/lp.txt) -eq 3 ]" \
	"three runs of 93 test edges and 93 non-edges ($m edges)"
check "[ \$(grep -c '^@graph id=0 nodes=300 edges=792 ' $T/seen.txt) -eq 3 ]" \
	"the encoder of each run sees 792 edges: the 140 held out are not in its graph"
if [ -n "$PY" ]; then
	py "split: test edges are edges not in the encoder's graph, non-edges are not edges, parts disjoint" \
		split "$T/g.txt" "$T/lp.txt" "$T/seen.txt" 0.05 0.1
	# the checker fails on a split that leaks: the whole graph as the encoder's
	check "! $PY $REF split $T/g.txt $T/lp.txt $T/g.txt 0.05 0.1 >/dev/null" \
		"linkpred_ref.py split finds test edges in a graph that holds them"
else
	skip "linkpred.test.sh: no python3: the split was not checked against the graph"
fi

# the same seed: the same predictions; the random-weight arm: the same
# pairs (item, u, v, true) run by run; another seed: other pairs
strip() { grep -v '^@pg\|^@end\|^##' "$1" | sed 's/ pg=[0-9a-f]*//; s/ features="[^"]*"//'; }
expect 0 "gcn-adapt -q $A --features 'nodefeat -t' -t -o $T/lp2.txt $T/g.txt"
strip "$T/lp.txt" >"$T/p1"
strip "$T/lp2.txt" >"$T/p2"
same "$T/p1" "$T/p2" "same seed, same predictions (whatever the command's output is kept)"
expect 0 "gcn-adapt -q $A --no-pretrain -t -o $T/rnd.txt $T/g.txt"
cols() { awk '/^@tensor/ { print "run", ++r; next } /^[@#]/ { next } { print $1, $2, $3, $4 }' "$1"; }
cols "$T/lp.txt" >"$T/c1"
cols "$T/rnd.txt" >"$T/c2"
awk '/^run/ { r = $2; next } r == 3' "$T/c1" >"$T/c1-run2"
same "$T/c1" "$T/c2" "the random-weight arm has the same split, run by run"
check "grep -q '^@tensor .*task=linkpred .*init=random' $T/rnd.txt" "--no-pretrain: init=random"
expect 0 "gcn-adapt -q $A -s 2 -t -o $T/lp3.txt $T/g.txt"
check "! cmp -s $T/c1 $T/c3" "another seed, other test pairs"
cols "$T/lp3.txt" >"$T/c3"
expect 0 "gcn-adapt -q $A --first-run 2 --runs 1 -t -o $T/r2.txt $T/g.txt"
cols "$T/r2.txt" | sed 1d >"$T/c2-run2"
same "$T/c1-run2" "$T/c2-run2" "--first-run 2: run 2's split of the longer set"

# evalf1: AUC and AP against the reference, per run, to its 6 decimals
expect 0 "evalf1 --format tsv $T/lp.txt >$T/lp.tsv"
check "head -1 $T/lp.tsv | grep -q '^run	items	micro_f1	macro_f1	auc	ap$'" "evalf1 --format tsv: auc and ap columns"
# cmp_scores PRED TSV: the reference's AUC and AP (PRED.ref) = evalf1's
cmp_scores() {
	"$PY" "$REF" scores "$1" >"$1.ref" || { lib_bad "linkpred_ref.py scores $1"; return; }
	check "awk 'NR == FNR { a[\$1] = \$2; p[\$1] = \$3; n++; next }
		\$1 ~ /^[0-9]+\$/ { k++; if (a[\$1] - \$5 > 6e-7 || \$5 - a[\$1] > 6e-7 ||
			p[\$1] - \$6 > 6e-7 || \$6 - p[\$1] > 6e-7) exit 1 }
		END { exit !(k == n && n > 0) }' FS=' ' $1.ref FS='\t' $2" "$3"
}
if [ -n "$PY" ]; then
	cmp_scores "$T/lp.txt" "$T/lp.tsv" "evalf1's AUC and AP are the reference's (pairs counted, AP by definition)"
	# ties: scores of 2 levels among 8 items, and a run whose order is perfect
	{ echo '##gnnstream 1'
	  echo '@tensor id=0 name=predictions rows=8 cols=4 type=f64 columns=item,true,pred,score'
	  printf '0 1 1 2\n1 1 1 2\n2 0 1 2\n3 1 0 -1\n4 0 0 -1\n5 0 0 -1\n6 1 1 2\n7 0 0 0.5\n'
	  echo '@tensor id=1 name=predictions rows=4 cols=4 type=f64 columns=item,true,pred,score'
	  printf '0 1 1 3\n1 1 1 2\n2 0 0 1\n3 0 0 0\n'
	  echo '@end'; } >"$T/ties.txt"
	expect 0 "evalf1 --auc --format tsv $T/ties.txt >$T/ties.tsv"
	cmp_scores "$T/ties.txt" "$T/ties.tsv" "ties: evalf1's AUC and AP are the reference's"
	check "awk '\$1 == 1 { exit !(\$5 == 1 && \$6 == 1) }' $T/ties.tsv" "a perfect order: AUC 1, AP 1"
	check "awk '\$1 == 0 { exit !(\$5 == 0.71875) }' $T/ties.tsv" "ties count one half: AUC 11.5/16"
else
	skip "linkpred.test.sh: no python3: evalf1's AUC and AP were not compared with the reference"
fi
expect 0 "evalf1 $T/lp.txt >$T/lp.table"
check "grep -q '^AUC [0-9.]* ± [0-9.]*   AP [0-9.]* ± [0-9.]*' $T/lp.table" "the table closes with AUC and AP"
expect 0 "evalf1 --format yaml $T/lp.txt >$T/lp.yaml"
check "grep -q '^auc: {mean: ' $T/lp.yaml && grep -q '^ap: {mean: ' $T/lp.yaml" "yaml: auc and ap"
expect 0 "evalf1 --format tsv --baseline $T/rnd.txt $T/lp.txt >$T/paired.tsv"
check "[ \$(awk -F'\t' '\$2 == \"auc\" || \$2 == \"ap\"' $T/paired.tsv | wc -l) -eq 2 ]" \
	"--baseline: paired AUC and AP"
expect 0 "evalf1 --format tsv $T/ties.txt >$T/noauc.tsv"
check "head -1 $T/noauc.tsv | grep -q 'macro_f1\$'" "without --auc, a run of another task has no AUC"

# the shipped model (d = 512), one short run
expect 0 "gcn-adapt -q -j 2 --task linkpred --runs 1 --epochs 3 -t -o $T/shipped.txt $T/g.txt"
check "grep -q '^@tensor .*task=linkpred .*init=pretrained' $T/shipped.txt" "the shipped model"
# attributes-only baseline and --attributes work as for the other tasks
expect_err 1 "gcn-adapt -q --task linkpred --attr-only $T/g.txt" "no 'attributes' tensor"

# edge labels are not used: said once, and the split is that of the graph
awk '/^@/ { on = /^@graph/; next } on && NF == 2 { print $1, $2, NR % 3 }' "$T/g.txt" >"$T/lab.el"
expect 0 "gcn-adapt $A --runs 1 -o $T/lab.gs $T/lab.el 2>$T/lab.err"
check "grep -q 'edge labels are not used by --task linkpred' $T/lab.err" "edge labels: said on stderr"
