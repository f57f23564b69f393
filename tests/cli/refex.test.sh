# refex.test.sh - nodefeat --set refex, the hand-made structural baseline
# (sourced by run.sh with lib.sh: expect, expect_err, check, same).  The
# values are checked against networkx and numpy (tests/cli/refex_ref.py)
# when /usr/bin/python3 has both, and the check itself is shown to fail on
# a value off by 1e-9.
T="$TMPD/refex"
mkdir -p "$T"
PY=/usr/bin/python3
printf '0 1\n1 2\n2 0\n2 3\n' >"$T/tail.txt"	# a triangle with a tail
# graphs of every density, with isolated nodes and small components
dcbm-gen -q -s 3 --count 4 --nodes 60..300 -t >"$T/g.txt"
dcbm-gen -q -s 4 --count 3 --nodes 100..400 --mean-degree 1..2 -t >"$T/sparse.txt"
dcbm-gen -q -s 5 --count 1 --nodes 200 --mean-degree 40 -t >"$T/dense.txt"
motif-gen -q -s 6 --preset ba-shapes -t >"$T/motif.txt"

# ---- options: misuse is one line and exit 2, nothing ignored silently
expect 0 "nodefeat -h | grep -q 'refex'"
expect_err 2 "nodefeat --set refex --scale log $T/tail.txt" "--scale: applies to --set paper only (refex"
expect_err 2 "nodefeat --set refex --rw-steps 4 $T/tail.txt" "--rw-steps: applies to --set rwse only"
expect_err 2 "nodefeat --set refex --exact-max 9 $T/tail.txt" "--exact-max: applies to --set rwse only"

# ---- values by hand on the triangle with a tail: node 0 has degree 2,
# core 2, CI_1 (2-1)(1+2) = 3, clustering 1; its neighbours 1 and 2 have
# degrees 2 and 3, so mean1_degree_log = (log 3 + log 4)/2 and
# max1_ci1_log = log(1 + 4); node 3 (a leaf of node 2) has max2_degree_log
# = the largest degree_log around node 2's neighbours 0, 1, 3 = log 3
expect 0 "nodefeat --set refex --tsv $T/tail.txt > $T/tail.tsv"
check "awk -F '\t' 'function near(a, b) { return a - b < 1e-15 && b - a < 1e-15 }
	NR == 1 && NF == 21 && \$2 == \"degree_log\" && \$6 == \"mean1_degree_log\" && \$21 == \"max2_clustering\" { ok++ }
	NR == 3 && near(\$2, log(3)) && near(\$4, log(4)) && \$5 == 1 && near(\$6, (log(3) + log(4)) / 2) && near(\$12, log(5)) { ok++ }
	NR == 6 && near(\$2, log(2)) && \$4 == 0 && near(\$18, log(3)) { ok++ }
	END { exit ok != 3 }' $T/tail.tsv" "refex values on the triangle with a tail"

# ---- the stream: one features record per graph, its set in the attributes;
# an earlier set's features and features_raw of the same graph are dropped,
# every other record is kept
expect 0 "nodefeat -q $T/motif.txt | nodefeat --set refex -t > $T/m.rx.txt"
check "[ \$(grep -c '^@tensor id=0 name=features rows=700 cols=20 type=f64 columns=degree_log,core_log,ci1_log,clustering,mean1_degree_log,.*,max2_clustering .*set=refex' $T/m.rx.txt) -eq 1 ] &&
	! grep -q 'name=features_raw' $T/m.rx.txt && grep -q 'name=label rows=700' $T/m.rx.txt &&
	grep -q 'name=motif rows=700' $T/m.rx.txt" "refex record, labels kept, the paper's records replaced"
expect 0 "nodefeat --set refex -t $T/g.txt | grep -c '^@tensor.*name=features .*cols=20 ' | grep -qx 4"
# the refex features are a stage the model programs read
expect 0 "motif-gen -q -s 2 --preset tree-grid | nodefeat -q --set refex | gcn-adapt -q -j 2 --no-pretrain --features stream --runs 1 --epochs 2 --val 100 --test 200 -t > $T/ad.txt"
check "grep -q 'name=predictions rows=200 ' $T/ad.txt" "gcn-adapt --features stream takes the 20 columns"

# ---- against networkx and numpy: every value, 1e-12 relative
if [ -x $PY ] && $PY -c 'import numpy, networkx' 2>/dev/null; then
	for f in g sparse dense motif; do
		expect 0 "nodefeat --set refex --tsv $T/$f.txt > $T/$f.tsv"
		expect 0 "$PY $TOP/tests/cli/refex_ref.py $T/$f.txt $T/$f.tsv > $T/$f.ref"
	done
	check "[ \$(grep -c 'max relative difference' $T/sparse.ref) -eq 3 ]" "numpy checked the sparse graphs"
	expect 0 "nodefeat -q -t $TOP/data/cora.gs > $T/cora.txt"
	expect 0 "nodefeat --set refex --tsv $T/cora.txt > $T/cora.tsv"
	expect 0 "$PY $TOP/tests/cli/refex_ref.py $T/cora.txt $T/cora.tsv > $T/cora.ref"
	check "grep -q 'graph 0: 2708 nodes' $T/cora.ref" "numpy checked Cora"
	# the check can fail: one value off by one part in 10^9
	awk -F'\t' -v OFS='\t' 'NR == 40 { $15 = $15 * (1 + 1e-9) } { print }' "$T/g.tsv" >"$T/bad.tsv"
	check "! $PY $TOP/tests/cli/refex_ref.py $T/g.txt $T/bad.tsv > $T/bad.ref && grep -q 'mean2_core_log: nodefeat' $T/bad.ref" \
		"refex_ref.py catches a value off by 1e-9"
else
	echo "refex.test.sh: /usr/bin/python3 with numpy and networkx not found, reference check skipped"
fi
