# formats.test.sh - graph-import's graph formats: GraphML, GML, Pajek,
# LGL, NCOL and DIMACS through igraph's C library (common/import_igraph.c),
# Matrix Market by hand (common/import_mtx.c).  Each format's small file is
# read, its counts, names and attributes checked, and checked again against
# an independent reading (tests/cli/formats_ref.py: python-igraph's reader,
# scipy.io.mmread for .mtx) where /usr/bin/python3 has them; the output
# goes on through nodefeat and gcn-embed; bad input is one line.
#
# The files of tests/cli/data/formats-*: the small ones are written for
# this test; three are public (their sources and licences are in
# tests/cli/data/formats.README).
D="$TOP/tests/cli/data"
T="$TMPD/formats"
mkdir -p "$T"
PY=/usr/bin/python3

# $NAMES FILE: the names record of a text stream, comma-separated
NAMES="sh $T/names.sh"
cat >"$T/names.sh" <<'EOF'
awk '/^@names/ { on = 1; next } /^@/ { on = 0 } on { printf "%s,", $0 }' "$1"
EOF
# $BODY FILE NAME: the body lines of tensor NAME (or of the graph: graph)
BODY="sh $T/body.sh"
cat >"$T/body.sh" <<'EOF'
if [ "$2" = graph ]; then awk '/^@graph/{b=1;next} /^@/{b=0} b' "$1" | tr '\t\n' ' ;'
else awk -v n="name=$2" '/^@/{b=0} /^@/ && index($0, n" "){b=1;next} b' "$1" | tr '\t\n' ' ;'; fi
EOF

# ---- usage: one FILE each (or - for standard input) ----
expect_err 2 "graph-import -f graphml" "-f graphml takes FILE, not 0 file arguments"
expect_err 2 "graph-import -f mtx $D/formats-karate.mtx $D/formats-karate.mtx" "-f mtx takes FILE"
expect_err 2 "graph-import -f gml --nodes 3 $D/formats-small.gml" "--nodes is for -f edgelist"
check "graph-import -h | grep -q 'graphml|gml|pajek|lgl|ncol|dimacs FILE'" "-h names the igraph formats"

# ---- GraphML (igraph's examples/simple/test.graphml): node ids are the
# names, the boolean 'gender' a column, the rest named as ignored ----
expect 0 "graph-import -t -f graphml $D/formats-igraph-test.graphml >$T/graphml.txt"
check "grep -q '^@graph id=0 nodes=6 edges=7 .*format=graphml dataset=formats-igraph-test input_edges=7 self_loops=0 duplicates=0 directed_input=0' $T/graphml.txt" "graphml: 6 nodes, 7 edges"
check "[ \"\$($BODY $T/graphml.txt graph)\" = '0 1;0 2;1 3;2 3;2 4;3 5;4 5;' ]" "graphml: the edges"
check "[ \"\$($NAMES $T/graphml.txt)\" = n0,n1,n2,n3,n4,n5, ]" "graphml: node ids as names, in the file's order"
check "grep -q '^@tensor id=0 name=attributes rows=6 cols=1 type=f32 columns=gender ' $T/graphml.txt && [ \"\$($BODY $T/graphml.txt attributes)\" = '1;1;0;1;0;0;' ]" "graphml: a boolean attribute as a 0/1 column (its default where a node has none)"
check "grep -q ': ignored attributes: node color (text: a class with --label); edge weight, id; graph date, unused\$' $LIB_ERR" "graphml: the attributes not kept named in a warning"
check "grep -q \"igraph: Unknown attribute key 'd3'\" $LIB_ERR && [ \$(wc -l <$LIB_ERR) -eq 2 ]" "graphml: igraph's warning as one line"
expect 0 "graph-import -q -t -f graphml $D/formats-igraph-test.graphml >/dev/null"
check "[ ! -s $LIB_ERR ]" "-q: no warnings"
# gzip, and standard input
gzip -c "$D/formats-igraph-test.graphml" >"$T/g.graphml.gz"
expect 0 "graph-import -q -t -f graphml $T/g.graphml.gz | grep -v '^@pg' >$T/gz.txt"
expect 0 "graph-import -q -t -f graphml - <$D/formats-igraph-test.graphml | grep -v '^@pg' >$T/stdin.txt"
# (the same records, but for their pg ids, checksums and dataset names)
UNPG="sed 's/ pg=[^ ]*//; s/^@end.*//; s/dataset=[^ ]*//'"
check "grep -v '^@pg' $T/graphml.txt | $UNPG >$T/g0.txt && $UNPG $T/gz.txt | cmp -s - $T/g0.txt" "graphml: FILE.gz read as FILE"
check "$UNPG $T/stdin.txt | cmp -s - $T/g0.txt" "graphml: '-' reads standard input"

# ---- GML: labels (UTF-8, blanks) as names, an isolated node kept, the
# direction dropped, the reciprocal pair merged, the self-loop dropped ----
expect 0 "graph-import -t -f gml $D/formats-small.gml >$T/gml.txt"
check "grep -q '^@graph id=0 nodes=5 edges=3 .*input_edges=5 self_loops=1 duplicates=1 directed_input=1' $T/gml.txt" "gml: 5 nodes (one isolated), 3 edges"
check "[ \"\$($NAMES $T/gml.txt)\" = 'Myriel,Mme Thénardier,Valjean,Cosette,Isolé,' ]" "gml: labels as names"
check "grep -q 'formats-small.gml: a directed graph: direction dropped' $LIB_ERR && grep -q 'dropped 1 self-loop(s), merged 1 repeated or reciprocal' $LIB_ERR" "gml: direction, loop and merge said"
check "grep -q 'columns=age ' $T/gml.txt && [ \"\$($BODY $T/gml.txt attributes)\" = '40;35.5;45;8;70;' ]" "gml: a numeric attribute as a column"
# without labels: the ids (said when some node lacks one)
sed '/Valjean/s/label "Valjean" //' "$D/formats-small.gml" >"$T/nolabel.gml"
expect_err 0 "graph-import -t -f gml $T/nolabel.gml >$T/nolabel.txt" "node 2 has no label: the nodes are named by their ids"
check "[ \"\$($NAMES $T/nolabel.txt)\" = '10,20,30,40,50,' ]" "gml: ids as names"
# labels that are numbers: written as numbers are
printf 'graph [ node [ id 1 label 5 ] node [ id 2 label 7.5 ] edge [ source 1 target 2 ] ]\n' >"$T/numlabel.gml"
expect 0 "graph-import -t -f gml $T/numlabel.gml >$T/numlabel.txt"
check "[ \"\$($NAMES $T/numlabel.txt)\" = '5,7.5,' ]" "gml: numeric labels as names"

# ---- Pajek: labels as names (an unlabelled vertex by its number), the
# coordinates as columns ----
expect 0 "graph-import -t -f pajek $D/formats-small.net >$T/pajek.txt"
check "grep -q '^@graph id=0 nodes=6 edges=4 .*self_loops=1 duplicates=1' $T/pajek.txt" "pajek: 6 nodes, 4 edges"
check "[ \"\$($NAMES $T/pajek.txt)\" = 'Alice,Bob Smith,Carol,4,Eve,Frank,' ]" "pajek: labels as names, vertex 4 by its number"
check "grep -q 'columns=x,y,z ' $T/pajek.txt" "pajek: coordinates as columns"

# ---- NCOL and LGL: symbolic names in order of appearance ----
expect 0 "graph-import -t -f ncol $D/formats-small.ncol >$T/ncol.txt"
check "grep -q '^@graph id=0 nodes=4 edges=4 .*duplicates=1' $T/ncol.txt && [ \"\$($NAMES $T/ncol.txt)\" = alpha,beta,gamma,delta, ]" "ncol: names, the repeated pair merged"
check "grep -q 'ignored attributes: edge weight\$' $LIB_ERR" "ncol: weights named as ignored"
# a byte-order mark (Windows editors) is not part of the first name
{ printf '\357\273\277'; cat "$D/formats-small.ncol"; } >"$T/bom.ncol"
expect 0 "graph-import -q -t -f ncol $T/bom.ncol >$T/bom.txt"
check "[ \"\$($NAMES $T/bom.txt)\" = alpha,beta,gamma,delta, ]" "ncol: a byte-order mark skipped"
expect 0 "graph-import -q -t -f lgl $D/formats-small.lgl >$T/lgl.txt"
check "grep -q '^@graph id=0 nodes=5 edges=4 ' $T/lgl.txt && [ \"\$($NAMES $T/lgl.txt)\" = alpha,beta,gamma,delta,epsilon, ] && [ \"\$($BODY $T/lgl.txt graph)\" = '0 1;0 2;0 4;1 2;' ]" "lgl: names, delta isolated"

# ---- DIMACS max-flow: vertex i is node i-1, no names ----
expect 0 "graph-import -t -f dimacs $D/formats-small.max >$T/dimacs.txt"
check "grep -q '^@graph id=0 nodes=5 edges=6 .*duplicates=1 directed_input=1' $T/dimacs.txt && ! grep -q '^@names' $T/dimacs.txt" "dimacs: 5 nodes, 6 edges, no names"
check "grep -q 'formats-small.max: ignored attributes: edge capacity; graph source, sink\$' $LIB_ERR" "dimacs: the capacities, source and sink named as ignored"
printf 'p edge 4 2\ne 1 2\ne 3 2\n' >"$T/col.dimacs"
expect 0 "graph-import -t -f dimacs $T/col.dimacs >$T/col.txt"
check "[ ! -s $LIB_ERR ] && grep -q 'nodes=4 edges=2 .*directed_input=0' $T/col.txt" "dimacs: an edge problem is undirected (no warning)"

# ---- Matrix Market ----
expect 0 "graph-import -t -f mtx $D/formats-small.mtx >$T/mtx.txt"
check "grep -q '^@graph id=0 nodes=6 edges=4 .*field=integer symmetry=general entries=8 self_loops=1 zeros=1 duplicates=2' $T/mtx.txt && [ \"\$($BODY $T/mtx.txt graph)\" = '0 1;0 3;1 2;3 4;' ]" "mtx: the nonzeros off the diagonal, row 6 isolated"
check "grep -q 'not symmetric (2 pair(s) stored one way): direction dropped' $LIB_ERR && grep -q 'dropped 1 diagonal entry and 1 stored zero(s); the values are not kept' $LIB_ERR" "mtx: what was dropped, said"
expect 0 "graph-import -q -t -f mtx $D/formats-karate.mtx >$T/karate.txt"
check "grep -q '^@graph id=0 nodes=34 edges=78 .*field=pattern symmetry=symmetric entries=78 self_loops=0 zeros=0 duplicates=0' $T/karate.txt" "mtx: SuiteSparse's Newman/karate, 34 nodes, 78 edges"
expect 0 "graph-import -q -t -f mtx $D/formats-west0067.mtx >$T/west.txt"
check "grep -q '^@graph id=0 nodes=67 .*field=real symmetry=general entries=294 self_loops=2' $T/west.txt" "mtx: SuiteSparse's HB/west0067"

# ---- against igraph's own reading, and scipy's ----
if [ -x $PY ] && $PY -c 'import igraph, numpy' 2>/dev/null; then
	for ff in graphml:formats-igraph-test.graphml gml:formats-small.gml pajek:formats-small.net \
		ncol:formats-small.ncol lgl:formats-small.lgl dimacs:formats-small.max; do
		expect 0 "$PY $TOP/tests/cli/formats_ref.py ${ff%%:*} $D/${ff#*:} $T/${ff%%:*}.txt"
	done
	expect 0 "$PY $TOP/tests/cli/formats_ref.py gml $T/nolabel.gml $T/nolabel.txt"
	# the check can fail: two names swapped
	awk '/^@names/ { on = 1 } on && $0 == "n1" { print "n2"; next } on && $0 == "n2" { print "n1"; next } { print }' \
		"$T/graphml.txt" >"$T/swapped.txt"
	check "! $PY $TOP/tests/cli/formats_ref.py graphml $D/formats-igraph-test.graphml $T/swapped.txt >$T/swapped.out && grep -q 'names: graph-import' $T/swapped.out" \
		"formats_ref.py catches two names swapped"
else
	skip "formats.test.sh: the checks against python-igraph: /usr/bin/python3 has no igraph (python3-igraph) or numpy"
fi
if [ -x $PY ] && $PY -c 'import scipy.io, numpy' 2>/dev/null; then
	expect 0 "$PY $TOP/tests/cli/formats_ref.py mtx $D/formats-small.mtx $T/mtx.txt"
	expect 0 "$PY $TOP/tests/cli/formats_ref.py mtx $D/formats-karate.mtx $T/karate.txt"
	expect 0 "$PY $TOP/tests/cli/formats_ref.py mtx $D/formats-west0067.mtx $T/west.txt"
	# the check can fail: one edge dropped
	awk '/^@graph/ { sub(/edges=78/, "edges=77"); print; getline; next } { print }' "$T/karate.txt" >"$T/karate-1.txt"
	check "! $PY $TOP/tests/cli/formats_ref.py mtx $D/formats-karate.mtx $T/karate-1.txt >$T/k1.out && grep -q 'only in the reference' $T/k1.out" \
		"formats_ref.py catches an edge missing"
else
	skip "formats.test.sh: the checks against scipy.io.mmread: /usr/bin/python3 has no scipy (python3-scipy) or numpy"
fi

# ---- on through the pipeline: names in nodefeat's TSV, embeddings ----
expect 0 "graph-import -q -f gml $D/formats-small.gml | nodefeat -q --tsv >$T/gml.tsv"
check "[ \"\$(cut -f 2 $T/gml.tsv | tr '\n' ,)\" = 'name,# graph 0,Myriel,Mme Thénardier,Valjean,Cosette,Isolé,' ]" "gml | nodefeat --tsv: the names in the name column"
expect 0 "graph-import -q -f graphml $D/formats-igraph-test.graphml | nodefeat -q | gcn-embed -q --model $TOP/models/gcn-pretrain.gs --tsv >$T/emb.tsv"
check "[ \$(grep -vc '^#' $T/emb.tsv) -eq 7 ]" "graphml | nodefeat | gcn-embed: a row per node"
expect 0 "graph-import -q -f mtx $D/formats-karate.mtx | nodefeat -q | gcn-embed -q --model $TOP/models/gcn-pretrain.gs -t | grep -q '^@tensor id=0 name=embedding rows=34 '"
expect 0 "graph-import -q -f pajek $D/formats-small.net | centrality -q | nodefeat -q -t | grep -q '^@names id=0 count=6 '" "pajek: the names record passes through filters"

# ---- bad input: one line, exit 1 ----
sed 's|</graph>|</grap>|' "$D/formats-igraph-test.graphml" >"$T/broken.graphml"
expect_err 1 "graph-import -f graphml $T/broken.graphml" "broken.graphml: not a readable graphml file: Line 54: Opening and ending tag mismatch"
expect_err 1 "graph-import -f graphml $T/missing.graphml" "missing.graphml: No such file or directory"
: >"$T/empty.gml"
expect_err 1 "graph-import -f gml $T/empty.gml" "empty.gml: empty file"
sed 's/"Cosette"/"Valjean"/' "$D/formats-small.gml" >"$T/dup.gml"
expect_err 1 "graph-import -f gml $T/dup.gml" "node 3 and node 2 have the same name 'Valjean' (from 'label'): names must be distinct"
printf 'graph [ node [ id 1 label "a\tb" ] ]\n' >"$T/tab.gml"
expect_err 1 "graph-import -f gml $T/tab.gml" "node 0's name ('a?b', from 'label') holds a control character"
printf '*Vertices 0\n' >"$T/none.net"
expect_err 1 "graph-import -f pajek $T/none.net" "none.net: no nodes"
printf 'a b\nc\n' >"$T/bad.ncol"
expect_err 1 "graph-import -f ncol $T/bad.ncol" "bad.ncol: not a readable ncol file: Parse error in NCOL file, line"
printf '%%%%MatrixMarket matrix coordinate real general\n3 4 1\n1 2 1\n' >"$T/ns.mtx"
expect_err 1 "graph-import -f mtx $T/ns.mtx" "ns.mtx: line 2: a 3 x 4 matrix is not a graph (want a square matrix)"
printf '%%%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n' >"$T/arr.mtx"
expect_err 1 "graph-import -f mtx $T/arr.mtx" "arr.mtx: line 1: format 'array' is not read"
printf '%%%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n' >"$T/cx.mtx"
expect_err 1 "graph-import -f mtx $T/cx.mtx" "field 'complex' is not read"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 2\n' >"$T/short.mtx"
expect_err 1 "graph-import -f mtx $T/short.mtx" "short.mtx: the file ends after 2 of 3 entries"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n2 1\n3 1\n' >"$T/long.mtx"
expect_err 1 "graph-import -f mtx $T/long.mtx" "long.mtx: line 4: more entries than the 1 the size line announces"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n4 1\n' >"$T/range.mtx"
expect_err 1 "graph-import -f mtx $T/range.mtx" "range.mtx: line 3: row 4 is out of range 1..3"
printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n2 1 nan\n' >"$T/nan.mtx"
expect_err 1 "graph-import -f mtx $T/nan.mtx" "nan.mtx: line 3: value 'nan' is not a finite number"
printf '0 1\n1 2\n' >"$T/el.mtx"
expect_err 1 "graph-import -f mtx $T/el.mtx" "el.mtx: line 1: not a Matrix Market file"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n100000000 100000000 0\n' >"$T/big.mtx"
expect_err 1 "graph-import -f mtx $T/big.mtx" "big.mtx: line 2: 100000000 rows exceed the node limit"
