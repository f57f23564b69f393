# graph-import.test.sh - command-line table for graph-import (sourced by
# run.sh with lib.sh: expect, expect_err, check, same).
D="$TOP/tests/cli/data"
T="$TMPD/import"
mkdir -p "$T"
TINY="$D/import-tiny.content $D/import-tiny.cites"

# $BODY FILE NAME: the body lines of the record named NAME (NAME=graph: the
# @graph record) of a text stream
cat >"$T/body.sh" <<'EOF'
if [ "$2" = graph ]; then awk '/^@graph/{b=1;next} /^@/{b=0} b' "$1"
else awk -v n="name=$2" '/^@/{b=0} /^@/ && index($0, n" "){b=1;next} b' "$1"; fi
EOF
BODY="sh $T/body.sh"

# ---- usage: -h, --version, misuse (exit 2, one line) ----
expect 0 "graph-import -h"
check "graph-import -h | grep -q '^usage: graph-import '" "-h prints usage on stdout"
expect 0 "graph-import --version"
expect_err 2 "graph-import $TINY" "no -f FORMAT"
expect_err 2 "graph-import -f csv $TINY" "unknown format 'csv'"
expect_err 2 "graph-import -f linqs $D/import-tiny.content" "CONTENT CITES"
expect_err 2 "graph-import -f tu $D/import-tu $D/import-tu" "PREFIX"
expect_err 2 "graph-import -f movielens" "DIR"
expect_err 2 "graph-import -f tu --attributes $D/import-attr.txt $D/import-tu" "for -f linqs"
expect_err 2 "graph-import -f linqs --attr-dim 4 $TINY" "needs --attributes"
expect_err 2 "graph-import -f tu --nodes 4 $D/import-tu" "for -f edgelist"
expect_err 2 "graph-import -f edgelist --nodes 0 $D/mask-small.ok.txt" "--nodes"
expect_err 2 "graph-import -f linqs --bogus $TINY" "unknown option '--bogus'"
expect 2 "graph-import -f linqs -l 10 $TINY"
expect_err 2 "graph-import -f linqs --attributes $D/import-attr.txt $TINY" "attributes already"
check "! graph-import -x $TINY >$T/misuse.out 2>/dev/null; test ! -s $T/misuse.out" "misuse writes nothing on stdout"

# ---- LINQS content/cites ----
expect 0 "graph-import -f linqs -t $TINY >$T/tiny.txt"
check "grep -q '^@graph id=0 nodes=5 edges=4 .*format=linqs dataset=import-tiny links=7 self_loops=1 repeated_links=2 classes=3 class_names=Case_Based,Neural_Networks,Theory attributed_nodes=5' $T/tiny.txt" "linqs graph header: loops dropped, both directions merged, counts"
check "test \"\$($BODY $T/tiny.txt graph | tr '\t\n' ' ;')\" = '0 1;0 2;2 3;3 4;'" "linqs edges: content order ids, u < v, sorted"
check "test \"\$($BODY $T/tiny.txt orig_id | tr '\n' ' ')\" = '31 7 1033 5 88 '" "orig_id keeps the content ids"
check "test \"\$($BODY $T/tiny.txt label | tr '\n' ' ')\" = '2 1 2 0 1 '" "labels index the sorted class names"
check "grep -q '^@tensor id=0 name=attributes rows=5 cols=3 type=f32' $T/tiny.txt && test \"\$($BODY $T/tiny.txt attributes | sed -n 4p | tr '\t' ' ')\" = '1 1 0'" "bag-of-words attributes"
check "! grep -q has_attributes $T/tiny.txt" "no has_attributes tensor when every node has attributes"
# labels only (comma-separated), plus sparse attributes for 2 of 5 nodes
expect 0 "graph-import -q -f linqs -t $D/import-labels.txt $D/import-tiny.cites >$T/lab.txt"
check "! grep -q 'name=attributes' $T/lab.txt && grep -q 'edges=4 ' $T/lab.txt" "content without words: no attributes tensor"
expect 0 "graph-import -f linqs --attributes $D/import-attr.txt -t $D/import-labels.txt $D/import-tiny.cites >$T/part.txt"
check "grep -q 'attributes for only 2 of 5 nodes' $LIB_ERR && test \$(wc -l <$LIB_ERR) -eq 1" "partial attributes: one warning line"
check "test \"\$($BODY $T/part.txt has_attributes | tr '\n' ' ')\" = '1 0 0 1 0 '" "has_attributes marks the attributed nodes"
check "grep -q 'rows=5 cols=4 type=f32' $T/part.txt && test \"\$($BODY $T/part.txt attributes | sed -n 1p | tr '\t' ' ')\" = '0.5 0 0 1.25'" "sparse attributes placed"
expect 0 "graph-import -q -f linqs --attributes $D/import-attr.txt --attr-dim 6 -t $D/import-labels.txt $D/import-tiny.cites >$T/part6.txt"
check "grep -q 'name=attributes rows=5 cols=6 ' $T/part6.txt" "--attr-dim sets the width"
check "test -z \"\$(graph-import -q -f linqs --attributes $D/import-attr.txt $D/import-labels.txt $D/import-tiny.cites 2>&1 >/dev/null)\"" "-q silences the warning"
# the Pubmed-Diabetes tab files
expect 0 "graph-import -f linqs -t $D/import-pubmed.NODE.paper.tab $D/import-pubmed.DIRECTED.cites.tab >$T/pm.txt"
check "grep -q '^@graph id=0 nodes=4 edges=3 .*links=5 self_loops=1 repeated_links=1 classes=3 class_names=1,2,3' $T/pm.txt" "pubmed tab: header counts"
check "test \"\$($BODY $T/pm.txt attributes | tr '\t\n' ' ;')\" = '0.25 0 0.125;0 0.5 0;0 0 0;0.0625 1 0;'" "pubmed tab: named attributes in declaration order"
check "test \"\$($BODY $T/pm.txt label | tr '\n' ' ')\" = '0 2 1 2 '" "pubmed tab: label= values"
# string ids (CiteSeer): no orig_id tensor; unknown ids in cites
printf 'a\t1\tX\nb\t0\tY\nc\t1\tX\n' >"$T/s.content"
printf 'a\tb\nb\tc\nc\tzz\n' >"$T/s.cites"
expect_err 1 "graph-import -f linqs $T/s.content $T/s.cites" "s.cites: line 3: node 'zz' is not in"
expect 0 "graph-import -f linqs --skip-unknown -t $T/s.content $T/s.cites >$T/s.txt"
check "grep -q 'dropped 1 of 3 links' $LIB_ERR && grep -q 'edges=2 .*unknown_links=1' $T/s.txt && ! grep -q orig_id $T/s.txt" "--skip-unknown drops and counts; string ids give no orig_id"
# bad LINQS input: one line naming file and line
printf '1\t0\tA\n2\t1\n' >"$T/b1.content"
expect_err 1 "graph-import -f linqs $T/b1.content $D/import-tiny.cites" "b1.content: line 2: 2 fields, want 3"
printf '1\t0\tA\n1\t1\tB\n' >"$T/b2.content"
expect_err 1 "graph-import -f linqs $T/b2.content $D/import-tiny.cites" "line 2: node id '1' occurs twice"
printf '1\t0\tA\n2\tx\tB\n' >"$T/b3.content"
expect_err 1 "graph-import -f linqs $T/b3.content $D/import-tiny.cites" "line 2: attribute 'x' is not a finite number"
printf '1\tnan\tA\n' >"$T/b4.content"
expect_err 1 "graph-import -f linqs $T/b4.content $D/import-tiny.cites" "not a finite number"
printf '31\t7\t5\n' >"$T/b.cites"
expect_err 1 "graph-import -f linqs $D/import-tiny.content $T/b.cites" "b.cites: line 1: 3 fields, want 2"
: >"$T/empty.content"
expect_err 1 "graph-import -f linqs $T/empty.content $D/import-tiny.cites" "no nodes"
expect_err 1 "graph-import -f linqs $T/missing.content $D/import-tiny.cites" "missing.content: No such file"
printf '31\t9\t1\n' >"$T/b.attr"
expect_err 1 "graph-import -f linqs --attributes $T/b.attr --attr-dim 4 $D/import-labels.txt $D/import-tiny.cites" "b.attr: line 1: feature 9 is out of range 0..3"
printf '31\t1\t1\n31\t1\t2\n' >"$T/d.attr"
expect_err 1 "graph-import -f linqs --attributes $T/d.attr $D/import-labels.txt $D/import-tiny.cites" "line 2: node '31' feature 1 given twice"
printf 'NODE\tpaper\ncat=1,2:label\tnumeric:w-a:0.0\n1\tlabel=1\tw-b=0.5\n' >"$T/b.tab"
expect_err 1 "graph-import -f linqs $T/b.tab $D/import-tiny.cites" "line 3: attribute 'w-b' is not declared"
printf 'DIRECTED\tcites\nNO_FEATURES\n1\tpaper:101\tpaper:202\n' >"$T/b.cites.tab"
expect_err 1 "graph-import -f linqs $D/import-pubmed.NODE.paper.tab $T/b.cites.tab" "b.cites.tab: line 3: want"
# gzip input, found as FILE.gz when FILE is missing
gzip -c "$D/import-tiny.content" >"$T/z.content.gz"
expect 0 "graph-import -f linqs -t $T/z.content $D/import-tiny.cites >$T/z.txt"
check "test \"\$(grep -v '^@pg\\|^@end' $T/z.txt | sed 's/ pg=[^ ]*//; s/ dataset=[^ ]*//')\" = \"\$(grep -v '^@pg\\|^@end' $T/tiny.txt | sed 's/ pg=[^ ]*//; s/ dataset=[^ ]*//')\"" "FILE.gz reads like FILE"
# -o is never left half-written; a failed run leaves the old file alone
printf 'keep me\n' >"$T/keep.gs"
expect 1 "graph-import -f linqs -o $T/keep.gs $T/b1.content $D/import-tiny.cites"
check "grep -q '^keep me\$' $T/keep.gs && test -z \"\$(ls $T | grep -i tmp)\"" "a failed run leaves the -o file alone"
expect_err 1 "graph-import -f linqs $TINY >/dev/full" "graph-import"
# the stream is valid input for the other programs, and deterministic
expect 0 "graph-import -f linqs -o $T/tiny.gs $TINY && nodefeat -q $T/tiny.gs >/dev/null"
mkdir -p "$T/d1" "$T/d2"
expect 0 "cd $T/d1 && graph-import -f linqs -o x.gs $TINY && cd $T/d2 && graph-import -f linqs -o x.gs $TINY"
same "$T/d1/x.gs" "$T/d2/x.gs" "same input, same bytes"

# ---- TU format ----
expect 0 "graph-import -f tu -t $D/import-tu >$T/tu.txt"
check "test \$(grep -c '^@graph' $T/tu.txt) -eq 3 && test \"\$(grep '^@graph' $T/tu.txt | cut -d' ' -f2-4 | tr '\n' ';')\" = 'id=0 nodes=3 edges=3;id=1 nodes=3 edges=2;id=2 nodes=2 edges=1;'" "tu: one graph per graph, ids 0..G-1, local nodes, merged entries"
check "test \"\$(grep '^@label' $T/tu.txt | sed 's/ pg=[^ ]*//' | tr '\n' ';')\" = '@label id=0 name=label value=1 classes=2 class_names=-1,1;@label id=1 name=label value=0 classes=2 class_names=-1,1;@label id=2 name=label value=1 classes=2 class_names=-1,1;'" "tu: graph labels remapped to 0..C-1, mapping in class_names"
check "grep -q '^@graph id=0 nodes=3 edges=3 labels=i32 .*entries=6' $T/tu.txt && test \"\$(sed -n '/^@graph id=1/,/^@/p' $T/tu.txt | sed -n 2,3p | tr '\t\n' ' ;')\" = '0 1 1;1 2 2;'" "tu: edge labels"
check "test \"\$(awk '/name=node_label/{b=1;next} /^@/{b=0} b' $T/tu.txt | tr '\n' ' ')\" = '1 0 1 2 0 0 1 1 '" "tu: node labels remapped, per graph"
check "awk '/^@/{print \$1}' $T/tu.txt | tr '\n' ' ' | grep -q '@pg @graph @tensor @label @graph @tensor @label @graph @tensor @label @end'" "tu: each graph's records follow it"
# a TU set without the optional files, and node attributes
mkdir -p "$T/tu"
for f in A graph_indicator graph_labels; do cp "$D/import-tu_$f.txt" "$T/tu/x_$f.txt"; done
printf '1.5, 2\n0, 0\n1, 1\n2, 2\n3, 3\n4, 4\n5, 5\n6, 6\n' >"$T/tu/x_node_attributes.txt"
expect 0 "graph-import -f tu -t $T/tu/x >$T/tux.txt"
check "! grep -q node_label $T/tux.txt && ! grep -q labels=i32 $T/tux.txt && grep -q 'name=attributes rows=3 cols=2 type=f32' $T/tux.txt && grep -q 'dataset=x ' $T/tux.txt" "tu: optional files absent, node attributes present"
# bad TU input
cp "$T/tu/x_A.txt" "$T/tu/A.bak"
printf '1, 4\n' >>"$T/tu/x_A.txt"
expect_err 1 "graph-import -f tu $T/tu/x" "x_A.txt: line 13: edge between graph 1 (node 1) and graph 2 (node 4)"
printf '1, 9\n' >"$T/tu/x_A.txt"
expect_err 1 "graph-import -f tu $T/tu/x" "x_A.txt: line 1: node id 9 is out of range 1..8"
printf '1 2\n' >"$T/tu/x_A.txt"
expect_err 1 "graph-import -f tu $T/tu/x" "x_A.txt: line 1: 1 fields, want 'i, j'"
printf '1, 1\n1, 2\n' >"$T/tu/x_A.txt"
expect_err 0 "graph-import -f tu -o $T/tu/loop.gs $T/tu/x" "dropped 1 self-loop"
cp "$T/tu/A.bak" "$T/tu/x_A.txt"
printf '1\n1\n1\n2\n2\n2\n4\n4\n' >"$T/tu/x_graph_indicator.txt"
expect_err 1 "graph-import -f tu $T/tu/x" "x_graph_indicator.txt: line 7: graph id 4 is out of range 1..3"
printf '1\n1\n1\n2\n2\n2\n2\n2\n' >"$T/tu/x_graph_indicator.txt"
expect_err 1 "graph-import -f tu $T/tu/x" "graph 3 (of 3 in the graph labels) has no nodes"
cp "$D/import-tu_graph_indicator.txt" "$T/tu/x_graph_indicator.txt"
printf '1\n0\n' >"$T/tu/x_node_attributes.txt"
expect_err 1 "graph-import -f tu $T/tu/x" "x_node_attributes.txt: 2 lines, want 8"
rm "$T/tu/x_node_attributes.txt"
printf '1\nx\n1\n' >"$T/tu/x_graph_labels.txt"
expect_err 1 "graph-import -f tu $T/tu/x" "x_graph_labels.txt: line 2: graph label 'x'"
expect_err 1 "graph-import -f tu $T/tu/nothere" "nothere_graph_labels.txt: No such file"

# ---- MovieLens (synthetic files in both layouts; the real data is never in the repo) ----
expect 0 "graph-import -f movielens -t $D/import-ml100k >$T/ml.txt"
check "grep -q '^@graph id=0 nodes=7 edges=7 labels=i32 .*format=movielens dataset=import-ml100k users=3 items=4 ratings=7 rating_counts=1,1,1,2,2' $T/ml.txt" "ml-100k layout: header"
check "test \"\$($BODY $T/ml.txt graph | tr '\t\n' ' ;')\" = '0 3 5;0 5 4;1 3 3;1 4 1;2 3 4;2 5 5;2 6 2;'" "ml-100k: users then items, rating as edge label"
check "test \"\$($BODY $T/ml.txt kind | tr '\n' ' ')\" = '0 0 0 1 1 1 1 ' && test \"\$($BODY $T/ml.txt orig_id | tr '\n' ' ')\" = '1 2 3 1 2 3 4 '" "kind and orig_id"
check "grep -q 'name=attributes rows=7 cols=15 type=f32 columns=age_under18,.*,gender_M,gender_F,occ_other,occ_student,occ_technician,genre_unknown,genre_Action,genre_Comedy' $T/ml.txt" "ml-100k: attribute columns"
check "test \"\$($BODY $T/ml.txt attributes | sed -n '1p;3p;6p' | tr '\t\n' ' ;')\" = '0 1 0 0 0 0 0 1 0 0 0 1 0 0 0;1 0 0 0 0 0 0 1 0 0 1 0 0 0 0;0 0 0 0 0 0 0 0 0 0 0 0 0 1 1;'" "ml-100k: one-hot user tags, multi-hot genres"
expect 0 "graph-import -f movielens -t $D/import-ml1m >$T/ml1.txt"
check "grep -q '^@graph id=0 nodes=5 edges=3 labels=i32 .*users=2 items=3 ratings=3' $T/ml1.txt && grep -q 'cols=48 ' $T/ml1.txt" "ml-1m layout: header, 48 attribute columns"
check "test \"\$($BODY $T/ml1.txt orig_id | tr '\n' ' ')\" = '1 2 1 5 9 '" "ml-1m: movie ids with gaps kept in orig_id"
# bad MovieLens input
cp -r "$D/import-ml100k" "$T/mlb"
printf '1\t1\t6\t881250949\n' >"$T/mlb/u.data"
expect_err 1 "graph-import -f movielens $T/mlb" "u.data: line 1: rating 6 is out of range 1..5"
printf '1\t9\t3\t881250949\n' >"$T/mlb/u.data"
expect_err 1 "graph-import -f movielens $T/mlb" "u.data: line 1: item '9' is not in the item file"
printf '1\t1\t3\t1\n2\t1\t3\t1\n1\t1\t4\t2\n' >"$T/mlb/u.data"
expect_err 1 "graph-import -f movielens $T/mlb" "u.data: line 3: user 1 rated item 1 twice"
printf '1\t1\t3\t1\n' >"$T/mlb/u.data"
expect_err 1 "graph-import -f movielens $T/mlb" "u.info: 7 ratings, but"
cp "$D/import-ml100k/u.data" "$T/mlb/u.data"
printf '1|24|X|technician|85711\n' >"$T/mlb/u.user"
expect_err 1 "graph-import -f movielens $T/mlb" "u.user: line 1: gender 'X' is not M or F"
printf '1|24|M|pilot|85711\n' >"$T/mlb/u.user"
expect_err 1 "graph-import -f movielens $T/mlb" "occupation 'pilot' is not in u.occupation"
cp -r "$D/import-ml1m" "$T/ml1b"
printf '1::Film::Drama|Cooking\n' >"$T/ml1b/movies.dat"
expect_err 1 "graph-import -f movielens $T/ml1b" "movies.dat: line 1: genre 'Cooking'"
cp "$D/import-ml1m/movies.dat" "$T/ml1b/movies.dat"
printf '1::F::2::10::48067\n' >"$T/ml1b/users.dat"
expect_err 1 "graph-import -f movielens $T/ml1b" "age code 2 is not one of"
cp "$D/import-ml1m/users.dat" "$T/ml1b/users.dat"
mv "$T/ml1b/ratings.dat" "$T/ml1b/ratings.triples.dat"
expect_err 0 "graph-import -f movielens -o $T/ml1b.gs $T/ml1b" "no timestamps"
expect_err 1 "graph-import -f movielens $T" "not a MovieLens directory"

# ---- edge list ----
printf '# a comment\n0 1\n1 0\n2 2\n\n1\t2\n3,4\n' >"$T/e.txt"
expect_err 0 "graph-import -f edgelist -t $T/e.txt >$T/e.out" "dropped 1 self-loop(s), merged 1 duplicate edge(s)"
check "grep -q '^@graph id=0 nodes=5 edges=3 .*format=edgelist lines=5 self_loops=1 duplicates=1' $T/e.out" "edgelist: header and counts"
expect 0 "printf '0 1 5\n2 1 3\n' | graph-import -f edgelist --nodes 6 -t >$T/el.out"
check "grep -q '^@graph id=0 nodes=6 edges=2 labels=i32' $T/el.out && test \"\$($BODY $T/el.out graph | tr '\t\n' ' ;')\" = '0 1 5;1 2 3;'" "edgelist: labels, --nodes, stdin"
expect_err 1 "printf '0 1 5\n1 0 4\n' | graph-import -f edgelist" "<stdin>: line 2: edge 0 1 repeated with another label"
expect_err 1 "printf '0 1 5\n1 2\n' | graph-import -f edgelist" "line 2: 2 fields, but line 1 had 3"
expect_err 1 "printf '0 -1\n' | graph-import -f edgelist" "line 1: node id -1 is out of range"
expect_err 1 "printf '0 7\n' | graph-import -f edgelist --nodes 5" "line 1: node id 7 is out of range 0..4"
expect_err 1 "printf '0 1 2 3\n' | graph-import -f edgelist" "4 fields"
expect_err 1 "graph-import -f edgelist $T/empty.content" "no edges"
expect_err 1 "head -c 20 $T/z.content.gz | graph-import -f edgelist" "graph-import: <stdin>"

# ---- the shipped streams and the real data (when ../shared/data is there) ----
for f in cora imdb-binary imdb-multi pubmed-structure mutag enzymes ptc-mr; do
	check "test -s $TOP/data/$f.gs && nodefeat -q $TOP/data/$f.gs >/dev/null" "data/$f.gs is shipped and reads back"
done
# the transfer benchmark's sets: graphs, nodes, edges and classes as published
counts() {
	nodefeat -q -t "$TOP/data/$1.gs" | awk '/^@graph/ { g++; split($3, a, "="); n += a[2]; split($4, b, "="); e += b[2] }
		/^@label/ { for (i = 1; i <= NF; i++) if ($i ~ /^value=/) { split($i, v, "="); c[v[2]]++ } }
		/^@tensor .* name=label / { t = 1; next } /^@/ { t = 0 } t { c[$1]++ }
		END { printf "%d %d %d", g, n, e; for (k = 0; k in c; k++) printf " %d", c[k]; print "" }'
}
check "[ '$(counts pubmed-structure)' = '1 19717 44324 4103 7739 7875' ]" "data/pubmed-structure.gs: Pubmed's counts"
check "[ '$(counts mutag)' = '188 3371 3721 63 125' ]" "data/mutag.gs: MUTAG's counts"
check "[ '$(counts enzymes)' = '600 19580 37282 100 100 100 100 100 100' ]" "data/enzymes.gs: ENZYMES's counts"
check "[ '$(counts ptc-mr)' = '344 4915 5054 192 152' ]" "data/ptc-mr.gs: PTC_MR's counts"
S="$TOP/../shared/data"
if [ -d "$S/cora" ]; then
	# the shipped files are what data/Makefile makes from the mirror, byte for byte
	mkdir -p "$T/rt/repo/data" "$T/rt/shared"
	ln -s "$TOP/bin" "$T/rt/repo/bin"
	ln -s "$(cd "$S" && pwd)" "$T/rt/shared/data"
	expect 0 "make -s -C $T/rt/repo/data -f $TOP/data/Makefile MIRROR=../shared/data all"
	for f in cora imdb-binary imdb-multi; do
		same "$TOP/data/$f.gs" "$T/rt/repo/data/$f.gs" "data/$f.gs is stale (make -C data)"
	done
	# the transfer sets, where the mirror has their raw files
	for f in pubmed-structure:pubmed mutag:mutag enzymes:enzymes ptc-mr:ptc-mr; do
		[ -d "$S/${f#*:}" ] || continue
		expect 0 "make -s -C $T/rt/repo/data -f $TOP/data/Makefile MIRROR=../shared/data ${f%%:*}.gs"
		same "$TOP/data/${f%%:*}.gs" "$T/rt/repo/data/${f%%:*}.gs" "data/${f%%:*}.gs is stale (make -C data dev)"
	done
	# Cora: 2,708 nodes, 5,278 undirected edges, 7 classes, 1,433 words
	expect 0 "graph-import -f linqs -t $S/cora/cora.content $S/cora/cora.cites >$T/cora.txt"
	check "grep -q '^@graph id=0 nodes=2708 edges=5278 .*links=5429 self_loops=0 repeated_links=151 classes=7 ' $T/cora.txt" "Cora counts"
	check "grep -q 'name=attributes rows=2708 cols=1433 ' $T/cora.txt && test \$($BODY $T/cora.txt attributes | tr '\t' '\n' | grep -c '^1\$') -eq 49216" "Cora: 1,433 words, 49,216 ones"
	check "test \"\$($BODY $T/cora.txt label | sort | uniq -c | awk '{printf \"%s \", \$1}')\" = '298 418 818 426 217 180 351 '" "Cora class counts"
	# IMDB: graphs, nodes, undirected edges, classes
	for x in "imdb-binary IMDB-BINARY 1000 19773 96531 500,500" "imdb-multi IMDB-MULTI 1500 19502 98903 500,500,500"; do
		set -- $x
		expect 0 "graph-import -f tu -t $S/$1/$2 >$T/$1.txt"
		check "test \"\$(awk '/^@graph/{g++; for(i=2;i<=NF;i++){split(\$i,kv,\"=\"); if(kv[1]==\"nodes\")n+=kv[2]; if(kv[1]==\"edges\")m+=kv[2]}} END{print g, n, m}' $T/$1.txt)\" = '$3 $4 $5'" "$2: $3 graphs, $4 nodes, $5 edges"
		check "test \"\$(grep '^@label' $T/$1.txt | sed 's/.*value=\([0-9]*\).*/\1/' | sort | uniq -c | awk '{printf \"%s%s\", s, \$1; s=\",\"}')\" = '$6'" "$2: class counts $6"
	done
	# Pubmed: LINQS cites + Network Repository labels (PMID ids), and the
	# Planetoid conversion with its partial attributes
	expect 0 "graph-import -f linqs -t $S/pubmed/PubMed.node_labels $S/pubmed/Pubmed-Diabetes.DIRECTED.cites.tab >$T/pmid.txt"
	check "grep -q '^@graph id=0 nodes=19717 edges=44324 .*links=44338 self_loops=3 repeated_links=11 classes=3 class_names=1,2,3' $T/pmid.txt" "Pubmed (PMID): 19,717 nodes, 44,324 edges"
	expect_err 0 "graph-import -f linqs --attributes $S/pubmed/pubmed.planetoid.attr.partial --attr-dim 500 -t $S/pubmed/pubmed.planetoid.labels $S/pubmed/pubmed.planetoid.edges >$T/pubmed.txt" "attributes for only 1060 of 19717 nodes"
	check "grep -q '^@graph id=0 nodes=19717 edges=44324 .*attributed_nodes=1060' $T/pubmed.txt && grep -q 'name=attributes rows=19717 cols=500 ' $T/pubmed.txt" "Pubmed (Planetoid): counts, 500 attribute columns"
	check "test \"\$($BODY $T/pubmed.txt label | sort | uniq -c | awk '{printf \"%s \", \$1}')\" = '4103 7739 7875 ' && test \$($BODY $T/pubmed.txt has_attributes | grep -c 1) -eq 1060" "Pubmed (Planetoid): class counts, 1,060 attributed nodes"
	# MovieLens, read in place (never copied into the repository)
	expect 0 "graph-import -f movielens -t $S/ml-100k >$T/ml100k.txt"
	check "grep -q '^@graph id=0 nodes=2625 edges=100000 labels=i32 .*users=943 items=1682 ratings=100000 rating_counts=6110,11370,27145,34174,21201' $T/ml100k.txt" "ML-100K counts"
	expect_err 0 "graph-import -f movielens -o $T/ml1m.gs $S/ml-1m" "ratings.dat not found"
	check "graph-import -q -f movielens -t $S/ml-1m | grep -q '^@graph id=0 nodes=9923 edges=1000209 labels=i32 .*users=6040 items=3883 ratings=1000209 rating_counts=56174,107557,261197,348971,226310'" "ML-1M counts"
fi

# ---- edge lists with named nodes (issue 40): numbered in order of first
# appearance, a names record after the graph; --names makes integer ids
# names (no phantom nodes below the smallest id); --node-list declares the
# nodes and their order, isolated ones included ----
printf 'Napoleon Myriel\nMlleBaptistine Myriel\n' >"$T/lesmis.el"
expect 0 "graph-import -f edgelist -t $T/lesmis.el >$T/lesmis.txt"
check "grep -q '^@graph id=0 nodes=3 edges=2 ' $T/lesmis.txt &&
	[ \"\$(sed -n '/^@names id=0 count=3 /,/^@end/p' $T/lesmis.txt | sed '1d;\$d' | tr '\n' ,)\" = Napoleon,Myriel,MlleBaptistine, ]" \
	"edgelist: named nodes, numbered in order of first appearance"
printf '10005 10007\n10007 16746\n' >"$T/sparse-ids.el"
expect_err 0 "graph-import -f edgelist -o $T/sparse.gs $T/sparse-ids.el" "16744 of the node ids 0..16746 have no edge"
expect 0 "graph-import -q -f edgelist --names -t $T/sparse-ids.el >$T/sparse-named.txt"
check "grep -q '^@graph id=0 nodes=3 edges=2 ' $T/sparse-named.txt &&
	[ \"\$(sed -n '/^@names/,/^@end/p' $T/sparse-named.txt | sed '1d;\$d' | tr '\n' ,)\" = 10005,10007,16746, ]" \
	"edgelist --names: ids 10005.. are 3 named nodes, not 16,747"
printf 'Lonely\nMyriel\nNapoleon\nMlleBaptistine\n' >"$T/lesmis.nodes"
expect 0 "graph-import -f edgelist --node-list $T/lesmis.nodes -t $T/lesmis.el >$T/listed.txt"
check "grep -q '^@graph id=0 nodes=4 edges=2 ' $T/listed.txt && grep -qx '1	2' $T/listed.txt &&
	[ \"\$(sed -n '/^@names/,/^@end/p' $T/listed.txt | sed '1d;\$d' | tr '\n' ,)\" = Lonely,Myriel,Napoleon,MlleBaptistine, ]" \
	"edgelist --node-list: the list's order, an isolated node kept"
expect 0 "graph-import -q -f edgelist $T/lesmis.el | nodefeat -q --tsv >$T/lesmis.tsv"
check "[ \"\$(awk -F'\t' 'NR == 1 { print \$1 \"/\" \$2 } NR > 2 { print \$2 }' $T/lesmis.tsv | tr '\n' ,)\" = node/name,Napoleon,Myriel,MlleBaptistine, ]" \
	"edgelist names reach nodefeat's TSV name column"
