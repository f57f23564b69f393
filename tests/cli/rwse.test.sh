# rwse.test.sh - nodefeat --set rwse, the random-walk return probabilities
# (sourced by run.sh with lib.sh: expect, expect_err, check, same).
# The values are checked against numpy (tests/cli/rwse_ref.py: dense
# matrix powers of D^+ A) when /usr/bin/python3 has numpy, and the check
# itself is shown to fail on a value off by 1e-9.
T="$TMPD/rwse"
mkdir -p "$T"
printf '0 1\n1 2\n2 0\n2 3\n' >"$T/tail.txt"	# a triangle with a tail
# graphs of every density, with isolated nodes and small components
dcbm-gen -q -s 3 --count 4 --nodes 60..300 -t >"$T/g.txt"
dcbm-gen -q -s 4 --count 3 --nodes 100..400 --mean-degree 1..2 -t >"$T/sparse.txt"
dcbm-gen -q -s 5 --count 1 --nodes 200 --mean-degree 40 -t >"$T/dense.txt"
dcbm-gen -q -s 6 --count 1 --nodes 1200 --mean-degree 6 -l 0 -o "$T/mid.gs"

# ---- options: misuse is one line and exit 2, nothing ignored silently
expect 0 "nodefeat -h | grep -q -- '--rw-steps K'"
expect_err 2 "nodefeat --set rank $T/tail.txt" "--set: 'rank': expected paper, rwse or refex"
expect_err 2 "nodefeat --set rwse --rw-steps 0 $T/tail.txt" "--rw-steps: 0 is too small"
expect_err 2 "nodefeat --set rwse --rw-steps 65 $T/tail.txt" "--rw-steps: 65 is too large"
expect_err 2 "nodefeat --set rwse --rw-error 0 $T/tail.txt" "--rw-error: 0 is too small"
expect_err 2 "nodefeat --set rwse --rw-error 0.6 $T/tail.txt" "--rw-error: 0.6 is too large"
expect_err 2 "nodefeat --set rwse --rw-delta 1 $T/tail.txt" "--rw-delta: 1 is too large"
expect_err 2 "nodefeat --set rwse --exact-max -1 $T/tail.txt" "--exact-max: -1 is too small"
expect_err 2 "nodefeat --rw-steps 4 $T/tail.txt" "--rw-steps: applies to --set rwse only"
expect_err 2 "nodefeat --set paper --exact-max 9 $T/tail.txt" "--exact-max: applies to --set rwse only"
expect_err 2 "nodefeat --set rwse --scale log $T/tail.txt" "--scale: applies to --set paper only"

# ---- values by hand on the triangle with a tail: node 0 (degree 2, next
# to degrees 2 and 3) p_2 = (1/2)(1/2 + 1/3) = 5/12, p_3 = 2 (1/2)(1/2)(1/3)
# = 1/6; node 3 (a leaf of node 2) p_2 = 1/3, p_3 = 0
expect 0 "nodefeat --set rwse --rw-steps 3 --tsv $T/tail.txt > $T/tail.tsv"
check "awk 'function near(a, b) { return a - b < 1e-15 && b - a < 1e-15 }
	NR == 1 && \$0 == \"node\trw1\trw2\trw3\" { ok++ }
	NR == 3 && \$2 == 0 && near(\$3, 5 / 12) && near(\$4, 1 / 6) { ok++ }
	NR == 6 && \$2 == 0 && near(\$3, 1 / 3) && \$4 == 0 { ok++ }
	END { exit ok != 3 }' $T/tail.tsv" "rwse values on the triangle with a tail"

# ---- the stream: one features record per graph, its set in the attributes;
# an earlier set's features and features_raw of the same graph are dropped
expect 0 "nodefeat $T/g.txt | nodefeat --set rwse -t > $T/g.rw.txt"
check "[ \$(grep -c '^@tensor.* name=features .*columns=rw1,.*,rw16 .*set=rwse steps=16 method=exact' $T/g.rw.txt) -eq 4 ] &&
	! grep -q 'name=features_raw' $T/g.rw.txt && [ \$(grep -c '^@graph' $T/g.rw.txt) -eq 4 ] &&
	[ \$(grep -c 'name=cluster' $T/g.rw.txt) -eq 4 ]" "rwse records"
expect 0 "nodefeat --set rwse --rw-steps 5 -t $T/tail.txt | grep -q '^@tensor.* cols=5 .*columns=rw1,rw2,rw3,rw4,rw5 .*steps=5'"
# the text form of every record but the pg records (which hold the
# command line, -j included) and the trailer (whose CRC covers them)
strip() { grep -v '^@pg\|^@end' "$1" | sed 's/ pg=[0-9a-f]*//'; }
# --set paper is the default, byte for byte but the command line
expect 0 "nodefeat -t -o $T/p1.txt $T/g.txt"
expect 0 "nodefeat --set paper -t -o $T/p2.txt $T/g.txt"
strip "$T/p1.txt" >"$T/p1.s"
strip "$T/p2.txt" >"$T/p2.s"
check "[ -s $T/p1.s ]" "--set paper: output"
same "$T/p1.s" "$T/p2.s" "--set paper and the default"

# ---- against numpy: exact values, 1e-12 relative on every node
PY=/usr/bin/python3
if [ -x $PY ] && $PY -c 'import numpy' 2>/dev/null; then
	for f in g sparse dense; do
		expect 0 "nodefeat --set rwse --tsv $T/$f.txt > $T/$f.tsv"
		expect 0 "$PY $TOP/tests/cli/rwse_ref.py $T/$f.txt $T/$f.tsv 16 > $T/$f.ref"
	done
	# IMDB-BINARY's 1000 ego-nets, K = 20, and K = 3
	expect 0 "nodefeat -q -t $TOP/data/imdb-binary.gs > $T/imdb.txt"
	expect 0 "nodefeat --set rwse --rw-steps 20 --tsv $T/imdb.txt > $T/imdb.tsv"
	expect 0 "$PY $TOP/tests/cli/rwse_ref.py $T/imdb.txt $T/imdb.tsv 20 > $T/imdb.ref"
	check "[ \$(grep -c 'max relative difference' $T/imdb.ref) -eq 1000 ]" "numpy checked the 1000 IMDB graphs"
	expect 0 "nodefeat --set rwse --rw-steps 3 --tsv $T/sparse.txt > $T/sparse3.tsv"
	expect 0 "$PY $TOP/tests/cli/rwse_ref.py $T/sparse.txt $T/sparse3.tsv 3 > $T/sparse3.ref"
	# the check can fail: one value off by one part in 10^9
	awk -F'\t' -v OFS='\t' 'NR == 40 { $5 = $5 * (1 + 1e-9) } { print }' "$T/g.tsv" >"$T/bad.tsv"
	check "! $PY $TOP/tests/cli/rwse_ref.py $T/g.txt $T/bad.tsv 16 > $T/bad.ref && grep -q 'rw4: nodefeat' $T/bad.ref" \
		"rwse_ref.py catches a value off by 1e-9"
else
	echo "rwse.test.sh: /usr/bin/python3 with numpy not found, numpy reference check skipped"
fi

# ---- estimates past --exact-max: said once on stderr, recorded in the
# attributes, within the stated bound for all values of the graph at once
expect 0 "nodefeat --set rwse --tsv $T/mid.gs > $T/mid.exact.tsv"
expect 0 "nodefeat --set rwse --exact-max 1000 -s 7 -t $T/mid.gs > $T/mid.est.txt"
check "grep -q 'graph 0: estimated the return probabilities of 1[0-9]* of 1200 nodes (components larger than --exact-max 1000)' $LIB_ERR" \
	"estimates said on stderr"
check "grep -q '^@tensor.* name=features .*method=walks estimated=1[0-9]* exact_max=1000 walks=[0-9]* delta=0.01 error_requested=0.05 error=0.0[0-9]* error_all=0.[0-9]*' $T/mid.est.txt" \
	"estimates recorded in the attributes"
expect 0 "nodefeat -q --set rwse --exact-max 1000 -s 7 --tsv $T/mid.gs > $T/mid.est.tsv"
check "[ ! -s $LIB_ERR ]" "-q silences the estimate message"
bound=$(sed -n 's/^@tensor.* name=features .* error_all=\([0-9.e-]*\).*/\1/p' "$T/mid.est.txt")
check "paste $T/mid.exact.tsv $T/mid.est.tsv | awk -F'\t' -v b=$bound '
	NR > 2 && !/^#/ { for (k = 2; k <= 17; k++) { d = \$k - \$(k + 17); if (d < 0) d = -d; if (d > m) m = d } }
	END { exit !(b > 0 && m <= b && m > b / 8) }'" \
	"estimates within the stated bound $bound (and not within an eighth of it)"
# same seed and input: same bytes whatever -j; another seed: other walks
expect 0 "nodefeat -q -j 1 --set rwse --exact-max 100 -s 7 -t -o $T/e1.txt $T/mid.gs"
expect 0 "nodefeat -q -j 2 --set rwse --exact-max 100 -s 7 -t -o $T/e2.txt $T/mid.gs"
expect 0 "nodefeat -q -j 2 --set rwse --exact-max 100 -s 8 -t -o $T/e3.txt $T/mid.gs"
expect 0 "nodefeat -q -j 1 --set rwse -t -o $T/x1.txt $T/mid.gs"
expect 0 "nodefeat -q -j 2 --set rwse -t -o $T/x2.txt $T/mid.gs"
for f in e1 e2 e3 x1 x2; do strip "$T/$f.txt" >"$T/$f.s"; done
check "grep -q 'method=walks' $T/e1.s && grep -q 'method=exact' $T/x1.s" "rwse: estimated and exact runs"
same "$T/e1.s" "$T/e2.s" "rwse estimates: -j 1 and -j 2"
check "! cmp -s $T/e2.s $T/e3.s" "rwse estimates: another seed changes nothing"
same "$T/x1.s" "$T/x2.s" "rwse exact: -j 1 and -j 2"
