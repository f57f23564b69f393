# infer.test.sh - inference (issue 31): items without a class are never
# trained on or scored, gcn-adapt --save-model writes the adapted model of
# the run it keeps, --predict labels every item of a graph with it (the
# saved run's test items get that run's own predictions back), and evalf1
# scores the items whose truth is known.  Sourced by run.sh with lib.sh.
T="$TMPD/infer"
mkdir -p "$T"
dcbm-gen -q -s 2 --count 12 --nodes 60..120 | centrality -q |
	gcn-train -q -j 2 --hidden 16 --epochs 2 --batch 4 --validation 2 -o "$T/model.gs"

# rows of the predictions record of run R (all runs: R empty) of a text
# stream, as "item true pred score..." lines
pred_rows() {
	awk -v r="$2" '/^@tensor/ { on = / name=predictions / && (r == "" || $2 == "id=" r); next }
		/^@/ { on = 0 } on' "$1"
}
# the value of config key K of a text-form model
cfg() { sed -n "s/^$1: //p" "$2"; }
# items (first column) of the rows in file $1 whose true class ($2) is -1
unknown() { awk '$2 == -1 { print $1 }' "$1" | sort -n; }
# agree SAVED PREDICTED: every row of SAVED is in PREDICTED with the same
# true and predicted class and the same probabilities to 1e-6; prints the
# rows compared, or "bad ITEM"
agree() {
	awk 'NR == FNR { row[$1] = $0; next }
	     { split(row[$1], q); if (!($1 in row) || q[2] != $2 || q[3] != $3) { print "bad", $1; exit }
	       for (c = 4; c <= NF; c++) { d = q[c] - $c; if (d < -1e-6 || d > 1e-6) { print "bad", $1; exit } }
	       n++ }
	     END { print n + 0 }' "$2" "$1"
}
# items (first column) of the rows in file $1 that file $2 lists
among() { awk 'NR == FNR { in2[$1] = 1; next } $1 in in2 { print $1 }' "$2" "$1"; }
# the runs with the best val_acc of a text stream, as " id id ... " (on a
# tie gcn-adapt keeps the lower validation loss, which the predictions
# do not carry)
best_run() {
	awk '/^@tensor .*name=predictions/ { id = $2; sub(/id=/, "", id); v = $0
		sub(/.* val_acc=/, "", v); sub(/ .*/, "", v); acc[id] = v + 0; ids[++n] = id
		if (n == 1 || v + 0 > best) best = v + 0 }
		END { s = " "; for (i = 1; i <= n; i++) if (acc[ids[i]] == best) s = s ids[i] " "; print s }' "$1"
}

# ---- node task: every fifth node without a class (-1) ----
dcbm-gen -q -s 5 --count 1 --nodes 600 --clusters 3 --p-div-q 6 -t |
	awk '/^@tensor/ { t = 1; print; next } /^@/ { t = 0 } t && ++r % 5 == 0 { $0 = -1 } { print }' |
	sed 's/^@end .*/@end/' >"$T/gu.txt"
awk '/^@tensor/ { t = 1; next } /^@/ { t = 0 } t { if ($1 == -1) print n; n++ }' "$T/gu.txt" >"$T/gu.unl"
nu=$(wc -l <"$T/gu.unl")
check "[ $nu -eq 120 ]" "the graph has 120 nodes without a class (got $nu)"
A="--label cluster --runs 3 --val 100 --test 200 --train-per-class 10 -s 1"
expect 0 "gcn-adapt -j 2 --model $T/model.gs $A -t -o $T/p.txt --save-model $T/m.txt $T/gu.txt 2>$T/p.err"
check "grep -q '^gcn-adapt: 120 of 600 nodes have no class' $T/p.err" "gcn-adapt says how many nodes have no class"
check "[ \$(grep -c '^@tensor .*name=predictions rows=200 .*classes=3' $T/p.txt) -eq 3 ]" \
	"three runs of 200 test nodes, drawn among the labelled ones"
pred_rows "$T/p.txt" >"$T/p.rows"
x=$(among "$T/p.rows" "$T/gu.unl")
check "[ -s $T/p.rows ] && [ \$(awk '\$2 < 0' $T/p.rows | wc -l) -eq 0 ] && [ -z '$x' ]" \
	"no node without a class is among the runs' test predictions"
r=$(cfg adapt.run "$T/m.txt")
check "case '$(best_run "$T/p.txt")' in *' $r '*) true ;; *) false ;; esac" "the saved run ($r) is one with the best validation accuracy"
check "grep -q '^@model name=gcn-adapted ' $T/m.txt && [ '$(cfg adapt.task "$T/m.txt")' = '\"node\"' ] &&
	[ '$(cfg adapt.classes "$T/m.txt")' = 3 ] && [ '$(cfg adapt.label "$T/m.txt")' = '\"cluster\"' ] &&
	[ '$(cfg features.stage "$T/m.txt")' = '\"paper\"' ]" \
	"the adapted model record says its task, classes, label and feature stage"
for t in head.mix.alpha head.mix.psi head.gcn1.W head.gcn1.b head.gcn2.W head.gcn2.b embed.W block3.W2; do
	check "grep -q '^@param name=$t rows=[0-9]* cols=[0-9]* type=f32' $T/m.txt" "the adapted model holds $t"
done
check "! grep -q '^@param name=head.link' $T/m.txt" "a node model has no link decoder"

# --predict: every node, with the saved run's own test predictions
expect 0 "gcn-adapt -j 2 --predict --model $T/m.txt -t -o $T/q.txt $T/gu.txt"
check "grep -q '^@tensor id=$r name=predictions rows=600 cols=6 .*init=adapted .*labelled=480' $T/q.txt" \
	"--predict labels all 600 nodes in one record (id: the saved run)"
pred_rows "$T/q.txt" >"$T/q.rows"
check "[ \"\$(cut -f1 $T/q.rows | tr '\n' ' ')\" = \"\$(seq 0 599 | tr '\n' ' ')\" ]" "every node once, in order"
unknown "$T/q.rows" >"$T/q.unl"
same "$T/gu.unl" "$T/q.unl" "true class -1 exactly for the nodes without one"
pred_rows "$T/p.txt" "$r" >"$T/p.saved"
x=$(agree "$T/p.saved" "$T/q.rows")
check "[ '$x' = 200 ]" "the saved run's 200 test nodes get its own predicted classes and probabilities back"
for o in 0 1 2; do
	[ "$o" = "$r" ] && continue
	pred_rows "$T/p.txt" "$o" >"$T/p.other"
	x=$(agree "$T/p.other" "$T/q.rows" | head -n 1)
	check "[ '${x%% *}' = bad ]" "run $o's predictions are not the saved model's"
done
check "[ \$(awk '\$2 == -1 && \$3 >= 0 && \$3 <= 2' $T/q.rows | wc -l) -eq 120 ]" \
	"the nodes without a class are labelled too"
# evalf1 scores the 480 with a class and says it skipped the others
expect 0 "evalf1 --format tsv $T/q.txt >$T/q.tsv 2>$T/q.err"
check "grep -q '^evalf1: 120 of 600 items have no true class' $T/q.err" "evalf1 says how many it skipped"
acc=$(awk '$2 >= 0 { n++; ok += $2 == $3 } END { printf "%.6f", ok / n }' "$T/q.rows")
check "awk -F '\t' '\$1 == $r && \$2 == 480 && \$3 == \"$acc\"' $T/q.tsv | grep -q ." \
	"evalf1 scores the 480 labelled nodes: micro-F1 $acc, their accuracy"
expect 0 "gcn-adapt --predict --model $T/m.txt $T/gu.txt | evalf1 -q >$T/q.table"
# --save-model changes nothing of the runs (the same bytes but the pg record)
strip() { grep -v '^@pg\|^@end\|^##' "$1" | sed 's/ pg=[0-9a-f]*//'; }
expect 0 "gcn-adapt -j 2 --model $T/model.gs $A -t -o $T/p0.txt $T/gu.txt"
strip "$T/p.txt" >"$T/s1"
strip "$T/p0.txt" >"$T/s0"
same "$T/s0" "$T/s1" "--save-model leaves the runs' predictions as they were"
# --predict is deterministic and its -l/-t are those of any output
expect 0 "gcn-adapt -j 2 --predict --model $T/m.txt -t -o $T/q2.txt $T/gu.txt"
strip "$T/q.txt" >"$T/s2"
strip "$T/q2.txt" >"$T/s3"
same "$T/s2" "$T/s3" "--predict twice: the same records"
# no truth at all: every node predicted, evalf1 has nothing to score
awk '/^@tensor/ { exit } { print }' "$T/gu.txt" >"$T/bare.txt"
echo '@end' >>"$T/bare.txt"
expect 0 "gcn-adapt --predict --model $T/m.txt -t -o $T/bare.out $T/bare.txt"
check "grep -q '^@tensor .*rows=600 .*labelled=0' $T/bare.out" "a graph without classes: all 600 nodes predicted"
expect_err 1 "evalf1 $T/bare.out" "no item has a true class"

# ---- graph task: a stream of graphs, some without a label ----
# label: mean degree above the median; every 8th graph has no label
# record, graph 3 a negative one
dcbm-gen -q -s 3 --count 80 --nodes 30..60 -t >"$T/gs.txt"
awk '/^@graph/ { n = $3; m = $4; sub(/nodes=/, "", n); sub(/edges=/, "", m); print m / n }' "$T/gs.txt" |
	sort -g | awk '{ v[NR] = $1 } END { print v[int(NR / 2)] }' >"$T/median"
awk -v med="$(cat "$T/median")" '
	function flush() { if (g != "" && g % 8 != 7) print "@label id=" g " name=label value=" (g == 3 ? -1 : lab) }
	/^@graph/ { flush(); g = $2; sub(/id=/, "", g); n = $3; m = $4; sub(/nodes=/, "", n); sub(/edges=/, "", m)
		lab = (m / n > med) }
	/^@end/ { flush(); print "@end"; next } { print }' "$T/gs.txt" >"$T/gl.txt"
awk '/^@graph/ { g = $2; sub(/id=/, "", g); has[g] = 0; ids[++k] = g }
     /^@label/ { v = $4; sub(/value=/, "", v); if (v >= 0) has[g] = 1 }
     END { for (i = 1; i <= k; i++) if (!has[ids[i]]) print i - 1 }' "$T/gl.txt" >"$T/gl.unl"
ng=$(wc -l <"$T/gl.unl")
G="--task graph --runs 2 --epochs 15 --head-width 16 -s 1"
expect 0 "gcn-adapt -j 2 --model $T/model.gs $G -t -o $T/gp.txt --save-model $T/gm.txt $T/gl.txt 2>$T/gp.err"
check "grep -q '^gcn-adapt: $ng of 80 graphs have no class' $T/gp.err" "gcn-adapt says $ng graphs have no class"
pred_rows "$T/gp.txt" >"$T/gp.rows"
x=$(among "$T/gp.rows" "$T/gl.unl")
check "[ -s $T/gp.rows ] && [ -z '$x' ]" "no graph without a class is tested"
gr=$(cfg adapt.run "$T/gm.txt")
check "case '$(best_run "$T/gp.txt")' in *' $gr '*) true ;; *) false ;; esac" "the saved run ($gr) has the best validation accuracy"
expect 0 "gcn-adapt -j 2 --predict --model $T/gm.txt -t -o $T/gq.txt $T/gl.txt"
pred_rows "$T/gq.txt" >"$T/gq.rows"
check "[ \$(wc -l <$T/gq.rows) -eq 80 ] && grep -q '^@tensor .*task=graph .*labelled=$((80 - ng))' $T/gq.txt" \
	"--predict labels all 80 graphs"
unknown "$T/gq.rows" >"$T/gq.unl"
same "$T/gl.unl" "$T/gq.unl" "true class -1 exactly for the graphs without one"
pred_rows "$T/gp.txt" "$gr" >"$T/gp.saved"
n=$(wc -l <"$T/gp.saved")
x=$(agree "$T/gp.saved" "$T/gq.rows")
check "[ $n -gt 0 ] && [ '$x' = $n ]" \
	"the saved run's $n test graphs get its own predictions back"
expect 0 "evalf1 --format tsv $T/gq.txt >$T/gq.tsv 2>$T/gq.err"
check "grep -q '^evalf1: $ng of 80 items have no true class' $T/gq.err &&
	awk -F '\t' '\$2 == $((80 - ng))' $T/gq.tsv | grep -q ." "evalf1 scores the $((80 - ng)) labelled graphs"

# ---- link task: every seventh edge without a class (structure only) ----
dcbm-gen -q -s 5 --count 1 --nodes 800 --gamma 2.5 -t |
	awk '/^@/ { on = /^@graph/; next }
	     on && NF == 2 { u[++n] = $1; v[n] = $2; d[$1]++; d[$2]++ }
	     END { for (i = 1; i <= n; i++) print u[i], v[i], (i % 7 == 0 ? -1 : d[u[i]] + d[v[i]] > 20) }' >"$T/lu.txt"
m=$(wc -l <"$T/lu.txt")
awk '$3 == -1 { print NR - 1 }' "$T/lu.txt" >"$T/lu.unl"
ne=$(wc -l <"$T/lu.unl")
L="--task link --runs 2 --epochs 40 -s 1"
expect 0 "gcn-adapt -j 2 --model $T/model.gs $L -t -o $T/lp.txt --save-model $T/lm.txt $T/lu.txt 2>$T/lp.err"
check "grep -q '^gcn-adapt: $ne of $m edges have no class' $T/lp.err" "gcn-adapt says $ne edges have no class"
lab=$((m - ne))
check "grep -q '^@tensor .*name=predictions rows=$((lab - lab * 8 / 10)) ' $T/lp.txt" \
	"the test edges are 20% of the $lab labelled edges"
pred_rows "$T/lp.txt" >"$T/lp.rows"
x=$(among "$T/lp.rows" "$T/lu.unl")
check "[ -s $T/lp.rows ] && [ -z '$x' ]" "no edge without a class is tested"
check "[ '$(cfg adapt.class_values "$T/lm.txt")' = '\"0,1\"' ] && grep -q '^@param name=head.link2.W rows=64 cols=2 ' $T/lm.txt" \
	"a link model records its class values and holds the edge decoder"
expect 0 "gcn-adapt -j 2 --predict --model $T/lm.txt -t -o $T/lq.txt $T/lu.txt"
pred_rows "$T/lq.txt" >"$T/lq.rows"
check "[ \$(wc -l <$T/lq.rows) -eq $m ] && grep -q '^@tensor .*task=link .*class_values=0,1 .*labelled=$lab' $T/lq.txt" \
	"--predict labels all $m edges of the graph record"
unknown "$T/lq.rows" >"$T/lq.unl"
same "$T/lu.unl" "$T/lq.unl" "true class -1 exactly for the edges without one"
expect 0 "evalf1 --format tsv $T/lq.txt >$T/lq.tsv 2>$T/lq.err"
check "awk -F '\t' '\$2 == $lab' $T/lq.tsv | grep -q . && grep -q '^evalf1: $ne of $m items' $T/lq.err" \
	"evalf1 scores the $lab labelled edges"

# ---- what does not fit is refused ----
expect_err 1 "gcn-adapt --predict --model $T/model.gs $T/gu.txt" "a 'gcn-pretrain' model record: --predict takes an adapted model"
expect_err 1 "gcn-adapt --model $T/m.txt $A $T/gu.txt" "an adapted model (gcn-adapt --save-model): give it to --predict"
expect_err 2 "gcn-adapt --predict $T/gu.txt" "--predict: no --model"
expect_err 2 "gcn-adapt --predict --model $T/m.txt --epochs 3 $T/gu.txt" "--epochs is for adaptation"
expect_err 2 "gcn-adapt --predict --model $T/m.txt -s 3 $T/gu.txt" "--seed is for adaptation"
expect_err 2 "gcn-adapt --predict --model $T/m.txt --save-model $T/x.gs $T/gu.txt" "--save-model is for adaptation"
expect_err 1 "gcn-adapt --predict --model $T/m.txt --task graph $T/gl.txt" "adapted to --task node, not graph"
expect_err 1 "gcn-adapt --predict --model $T/m.txt --label none $T/gl.txt" "a second graph: node classification takes one graph"
expect_err 2 "gcn-adapt --attr-only --save-model $T/x.gs $T/gu.txt" "--attr-only has no encoder"
expect_err 2 "gcn-adapt --model $T/model.gs --save-model $T/x.gs -o $T/x.gs $T/gu.txt" "the predictions go there too"
awk '/^@tensor/ { t = 1; print; next } /^@/ { t = 0 } t && ++r == 7 { $0 = 5 } { print }' "$T/gu.txt" |
	sed 's/^@end .*/@end/' >"$T/c5.txt"
expect_err 1 "gcn-adapt --predict --model $T/m.txt $T/c5.txt" "node 6: class 5 is not one of the model's 3 classes"
printf '0 1 7\n1 2 0\n' >"$T/l7.txt"
expect_err 1 "gcn-adapt --predict --model $T/lm.txt $T/l7.txt" "edge 0: label 7 is not one of the model's classes (0,1)"
awk '/^@tensor/ { t = 1; print; next } /^@/ { t = 0 } t { $0 = -1 } { print }' "$T/gu.txt" |
	sed 's/^@end .*/@end/' >"$T/none.txt"
expect_err 1 "gcn-adapt --model $T/model.gs $A $T/none.txt" "no node has a class"
# a saved model's feature stage and width go with it: the 'features'
# tensor of the input, two columns made by awk (degree and its square),
# against nodefeat's four
awk 'BEGIN { OFS = "\t" } /^@graph/ { n = $3; sub(/nodes=/, "", n); n += 0; g = 1; print; next }
	/^@/ { g = 0 } g { d[$1]++; d[$2]++ }
	/^@end/ { print "@tensor id=0 name=features rows=" n " cols=2 type=f64 columns=deg,deg2"
		for (v = 0; v < n; v++) print d[v] + 0, d[v] * d[v]; print "@end"; next } { print }' \
	"$T/gu.txt" >"$T/gu2.txt"
nodefeat -q -t "$T/gu.txt" >"$T/gu4.txt"
expect 0 "gcn-adapt -q -j 2 --no-pretrain --features stream $A --runs 1 --epochs 30 --head-width 16 -t -o $T/p2.txt --save-model $T/m2.txt $T/gu2.txt"
check "[ '$(cfg features.width "$T/m2.txt")' = 2 ] && [ '$(cfg features.stage "$T/m2.txt")' = '\"stream\"' ] &&
	grep -q '^features.columns: \"deg,deg2\"' $T/m2.txt && grep -q '^@param name=embed.W rows=2 ' $T/m2.txt" \
	"the saved model records the two columns of its stage"
expect 0 "gcn-adapt -j 2 --predict --model $T/m2.txt -t -o $T/q2c.txt $T/gu2.txt"
pred_rows "$T/q2c.txt" >"$T/q2c.rows"
pred_rows "$T/p2.txt" >"$T/p2.rows"
x=$(agree "$T/p2.rows" "$T/q2c.rows")
check "[ '$x' = 200 ]" "the two-column model predicts its run's test nodes again"
# --predict multiplies in the precision the model was adapted in (its
# train.precision), not in what auto would measure now: products of this
# size go to bf16 in bf16, which changes the probabilities by its rounding
# (the two-column check above failed now and then under load, when auto
# measured fp32 in one run and bf16 in the other)
ch=$(cfg train.precision "$T/m2.txt")
check "[ '$ch' = '\"fp32\"' ] || [ '$ch' = '\"bf16\"' ]" "the adapted model records the precision of its runs ($ch)"
A2="--no-pretrain --features stream $A --runs 1 --epochs 30 --head-width 16"
expect 0 "gcn-adapt -q -j 2 $A2 --precision fp32 -t -o $T/p2f.txt --save-model $T/m2f.txt $T/gu2.txt"
expect 0 "gcn-adapt -j 2 --predict --model $T/m2f.txt -t -o $T/q2f.txt $T/gu2.txt 2>$T/q2f.err"
pred_rows "$T/p2f.txt" >"$T/p2f.rows"
pred_rows "$T/q2f.txt" >"$T/q2f.rows"
x=$(agree "$T/p2f.rows" "$T/q2f.rows" | head -n 1)
check "[ '$x' = 200 ] && grep -q '^@tensor .*name=predictions .*precision=fp32' $T/q2f.txt &&
	grep -q '^gcn-adapt: precision auto: fp32, the precision the model was adapted in' $T/q2f.err" \
	"a model adapted in fp32 predicts in fp32, and its run's test nodes again ($x)"
bf16_probe "$T"
if [ "$BF16" = 1 ]; then
	expect 0 "gcn-adapt -q -j 2 $A2 --precision bf16 -t -o $T/p2b.txt --save-model $T/m2b.txt $T/gu2.txt"
	expect 0 "gcn-adapt -q -j 2 --predict --model $T/m2b.txt -t -o $T/q2b.txt $T/gu2.txt"
	pred_rows "$T/p2b.txt" >"$T/p2b.rows"
	pred_rows "$T/q2b.txt" >"$T/q2b.rows"
	x=$(agree "$T/p2b.rows" "$T/q2b.rows" | head -n 1)
	check "[ '$x' = 200 ] && grep -q '^@tensor .*name=predictions .*precision=bf16' $T/q2b.txt" \
		"a model adapted in bf16 predicts in bf16, and its run's test nodes again ($x)"
	# where bf16 is not available: fp32, said in one line
	expect 0 "ONEDNN_MAX_CPU_ISA=AVX2 gcn-adapt -j 2 --predict --model $T/m2b.txt -t -o $T/q2n.txt $T/gu2.txt 2>$T/q2n.err"
	check "grep -q '^@tensor .*name=predictions .*precision=fp32' $T/q2n.txt &&
		grep -q '^gcn-adapt: precision auto: fp32: the model was adapted in bf16, and bf16 is not available: ' $T/q2n.err" \
		"without bf16, a model adapted in bf16 predicts in fp32 and says so: $(grep precision "$T/q2n.err")"
	expect 0 "gcn-adapt -q -j 2 --predict --precision fp32 --model $T/m2b.txt -t -o $T/q2x.txt $T/gu2.txt"
	check "grep -q '^@tensor .*name=predictions .*precision=fp32' $T/q2x.txt" "--precision given is taken as asked"
else
	skip "infer.test.sh: a model adapted in bf16 predicts in bf16: $BF16_WHY"
fi
expect_err 1 "gcn-adapt --predict --model $T/m2.txt $T/gu4.txt" "the model was trained on 2 columns"
expect_err 1 "gcn-adapt --predict --model $T/m2.txt $T/gu.txt" "and the input has none"
# attributes: the model's width, or refused
awk 'BEGIN { OFS = "\t" } /^@end/ { print "@tensor id=0 name=attributes rows=600 cols=2 type=f64 columns=a,b"
	for (i = 0; i < 600; i++) print i % 3, (i * 7) % 5; print "@end"; next } { print }' "$T/gu.txt" >"$T/ga.txt"
expect 0 "gcn-adapt -q -j 2 --model $T/model.gs --attributes $A --runs 1 --epochs 30 -t -o $T/pa.txt --save-model $T/ma.txt $T/ga.txt"
check "[ '$(cfg adapt.attributes "$T/ma.txt")' = 2 ] && grep -q '^@param name=head.gcn1.W rows=18 cols=64 ' $T/ma.txt" \
	"an attributes model: its attribute width, and a head input of d + 2 rows"
expect 0 "gcn-adapt -j 2 --predict --model $T/ma.txt -t -o $T/qa.txt $T/ga.txt"
pred_rows "$T/qa.txt" >"$T/qa.rows"
pred_rows "$T/pa.txt" >"$T/pa.rows"
x=$(agree "$T/pa.rows" "$T/qa.rows")
es=$(sed -n 's/^@tensor .* encoder_scale=\([^ ]*\).*/\1/p' "$T/pa.txt")
check "[ '$x' = 200 ] && [ -n '$es' ] && grep -q 'input=structure+attributes .*encoder_scale=$es' $T/qa.txt" \
	"with attributes: the run's test nodes again, at the run's encoder scale"
expect_err 1 "gcn-adapt --predict --model $T/ma.txt $T/gu.txt" "no 'attributes' tensor: the model was adapted with --attributes (2 columns)"
awk '/name=attributes/ { sub(/cols=2 type=f64 columns=a,b/, "cols=1 type=f64 columns=a"); a = 1; print; next }
	/^@/ { a = 0 } a { $0 = $1 } { print }' "$T/ga.txt" >"$T/ga1.txt"
expect_err 1 "gcn-adapt --predict --model $T/ma.txt $T/ga1.txt" "'attributes' has 1 columns; the model was adapted on 2"
