# centrality.test.sh - centrality's estimates past --exact-max and the error
# bounds they state, its messages, and what its manual says about threads
# (sourced by run.sh with lib.sh: expect, expect_err, check, same).
# nodefeat's and centrality's common behaviour is in features.test.sh.
T="$TMPD/cent"
mkdir -p "$T"
MAN="$TOP/man/man1/centrality.1"
# a 3000-node DCBM graph with hubs, and an edge list of two 400-node DCBM
# graphs side by side (800 nodes, two components)
dcbm-gen -q -s 2 --count 1 --nodes 3000 --mean-degree 6 --gamma 2.5 -l 0 -o "$T/big.gs"
dcbm-gen -q -s 3 --count 2 --nodes 400 --mean-degree 6 -t | awk '/^@graph/ { g++; next } /^#/ { next }
	/^@/ { next } NF == 2 { print $1 + 400 * (g - 1), $2 + 400 * (g - 1) }' >"$T/two.el"

# attr FILE KEY: the value of KEY= on the centrality tensor line of a text stream
attr() { sed -n "/^@tensor.* name=centrality /{s/.* $2=\([^ ]*\).*/\1/p;q}" "$1"; }

# ---- asked-for errors: requested and achieved bounds in the attributes ----
expect 0 "centrality --exact-max 100 --error 0.2 --closeness-error 0.3 -t $T/big.gs > $T/est.txt"
cp "$LIB_ERR" "$T/est.err"
a=$(attr "$T/est.txt" approx) be=$(attr "$T/est.txt" betweenness_error)
ce=$(attr "$T/est.txt" closeness_error) de=$(attr "$T/est.txt" delta)
ep=$(attr "$T/est.txt" eig_pairs) bb=$(attr "$T/est.txt" betweenness_bound)
cb=$(attr "$T/est.txt" closeness_bound) sb=$(attr "$T/est.txt" subgraph_bound)
k=$(attr "$T/est.txt" samples)
check "[ '$a $be $ce $de $ep' = 'bcs 0.2 0.3 0.1 32' ]" "attributes of the requested bounds: $a $be $ce $de $ep"
check "awk -v b='$bb' -v c='$cb' -v k='$k' -v s='$sb' 'BEGIN {
	exit !(b > 0 && b <= 0.2 && c > 0 && c <= 0.3 && k > 1 && k < 1000 && s >= 0) }'" \
	"achieved bounds within the requests, fewer sources than a third of the nodes: $bb $cb $k $sb"
check "grep -q 'estimated betweenness to within [0-9.e-]* (--error 0.2) and closeness to within [0-9.]*% (--closeness-error 0.3) from [0-9]* BFS sources drawn in 1 component(s), each bound with probability 0.9 (--delta 0.1); subgraph to within' $T/est.err" \
	"the message states the bounds: $(cat "$T/est.err")"
check "[ \$(grep -c '_bound=' $T/est.txt) -eq 1 ]" "one tensor with bounds"

# the bounds hold against the exact values (the same graph, --exact-max past n)
expect 0 "centrality -q --exact-max 100 --error 0.2 --closeness-error 0.3 --tsv $T/big.gs > $T/est.tsv"
expect 0 "centrality -q --exact-max 5000 --tsv $T/big.gs > $T/exact.tsv"
# (columns: node ev bc cl sc sclog, estimate then exact; rows 3.. are nodes)
paste "$T/est.tsv" "$T/exact.tsv" | awk -v b="$bb" -v c="$cb" -v s="$sb" '
	NR > 2 { d = $3 - $9; if (d < 0) d = -d; if (d > eb) eb = d
		if ($10 > 0) { r = ($4 - $10) / $10; if (r < 0) r = -r; if (r > ec) ec = r }
		r = ($5 - $11) / $11; if (r < 0) r = -r; if (r > es) es = r }
	END { printf "%d %g %g %g %g %g %g\n", NR, eb, b, ec, c, es, s }' >"$T/errs"
check "awk '{ exit !(\$1 == 3002 && \$2 > 0 && \$2 <= \$3 && \$4 > 0 && \$4 <= \$5 && \$6 <= \$7 + 1e-9) }' $T/errs" \
	"measured errors within the stated bounds (rows, betweenness error and bound, closeness, subgraph): $(cat "$T/errs")"
# the exact run states no bounds
expect 0 "centrality --exact-max 5000 -t $T/big.gs > $T/exact.txt"
check "! grep -q '_bound=\|approx=' $T/exact.txt && [ ! -s $LIB_ERR ]" "exact values carry no bound"

# ---- --samples: the count asked for is the count drawn, or the message says why ----
# (40 sources were reported for --samples 41 on two.el, and 514 for 512 on
# other graphs, when each component's share was rounded on its own and the
# small components' searches were counted in)
expect 0 "centrality --exact-max 100 --samples 41 -t $T/two.el > $T/fixed.txt"
check "grep -q 'graph 0 (800 nodes > --exact-max 100): estimated betweenness to within [0-9.e-]* and closeness to within [0-9.]*% from 41 BFS sources drawn in 2 component(s) (--samples 41), each bound' $LIB_ERR" \
	"--samples 41: $(cat "$LIB_ERR")"
check "[ '$(attr "$T/fixed.txt" samples)' = 41 ] && ! grep -q '_error=' $T/fixed.txt" \
	"--samples: the draws in the attributes, no requested error"
expect 0 "centrality --exact-max 100 --samples 3 -t $T/two.el > $T/few.txt"
check "grep -q 'from 4 BFS sources drawn in 2 component(s) (--samples 3: at least 2 in each)' $LIB_ERR" \
	"--samples 3 over two components: $(cat "$LIB_ERR")"
expect 0 "centrality --exact-max 100 --samples 300 -t $T/two.el > $T/many.txt"
check "grep -q 'betweenness and closeness searched from every node in 2 component(s) past --exact-max, as --samples would take more than a third of their nodes' $LIB_ERR && [ '$(attr "$T/many.txt" approx)' = s ]" \
	"--samples 300: $(cat "$LIB_ERR")"
expect 0 "centrality -q --exact-max 100 --samples 41 -t $T/two.el > /dev/null"
check "[ ! -s $LIB_ERR ]" "-q silences the estimates' line"
expect_err 2 "centrality --samples 40 --error 0.1 $T/two.el" "give one or the other"

# ---- the estimates do not depend on -j ----
for opt in "--error 0.2 --closeness-error 0.3" "--samples 200"; do
	expect 0 "centrality -q -j 1 --exact-max 100 $opt -t $T/big.gs | grep -v '^@pg' > $T/j1.txt"
	expect 0 "centrality -q -j 2 --exact-max 100 $opt -t $T/big.gs | grep -v '^@pg' > $T/j2.txt"
	same "$T/j1.txt" "$T/j2.txt" "estimates ($opt) with -j 1 and -j 2"
done

# ---- the eigensolvers run on one BLAS thread, as the manual says ----
check "sed -n '/^\.Sh ENVIRONMENT/,/^\.Sh/p' $MAN | tr '\n' ' ' |
	grep -q 'OPENBLAS_NUM_THREADS No effect: the eigensolvers.*run on one BLAS thread'" \
	"centrality(1) ENVIRONMENT: OPENBLAS_NUM_THREADS has no effect"
dcbm-gen -q -s 4 --count 1 --nodes 1200 --mean-degree 12 -l 0 -o "$T/dense.gs"
expect 0 "OPENBLAS_NUM_THREADS=1 centrality -q -t $T/dense.gs | grep -v '^@pg' > $T/b1.txt"
expect 0 "OPENBLAS_NUM_THREADS=2 centrality -q -t $T/dense.gs | grep -v '^@pg' > $T/b2.txt"
same "$T/b1.txt" "$T/b2.txt" "OPENBLAS_NUM_THREADS=1 and 2 give the same bytes"
