# motif-gen.test.sh - command-line table for motif-gen, the structural-role
# benchmark generator (sourced by run.sh with lib.sh: expect, expect_err,
# check, same).  The roles are checked against networkx's automorphisms
# (tests/cli/motif_check.py) where /usr/bin/python3 has networkx.
T="$TMPD/motif"
mkdir -p "$T"
PY=/usr/bin/python3

# attr KEY FILE: the value of KEY= in the first graph header of a text stream
attr() { grep -m 1 '^@graph' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# hist FILE: "class:count ..." of the label tensor of the first graph
hist() {
	awk '/^@/ { on = ($0 ~ /name=label /) ; if (seen && !on) exit; if (on) seen = 1; next }
	on { c[$1]++ } END { for (k = 0; k in c; k++) printf "%d:%d ", k, c[k] }' "$1"
}
# strip FILE: a text stream less its pg records and ids and its trailer
strip() { sed 's/ pg=[^ ]*//; /^##gnnstream/d; /^@pg/d; /^@end/d' "$1"; }

# ---- usage: -h, --version, misuse (exit 2, one line on stderr) ----
expect 0 "motif-gen -h"
check "motif-gen -h | grep -q '^usage: motif-gen '" "-h prints usage on stdout"
check "motif-gen -h | grep -q 'motif SPEC.*' && motif-gen -h | grep -q 'cliqueK \[house:80\]'" "-h shows the default motifs"
check "motif-gen --preset cycle-varied -h | grep -q 'base-nodes N .*\[40\]' &&
	motif-gen --preset cycle-varied -h | grep -q '\[fan6:8,star6:8,house-x:8\]' &&
	motif-gen -h --preset ba-shapes --count 7 | grep -q 'count N .*\[7\]'" "-h shows the preset's and the options' values"
expect 0 "motif-gen --version"
expect_err 2 "motif-gen --motif blob:3" "--motif: 'blob:3': unknown motif"
expect_err 2 "motif-gen --motif star:8" "star needs a size"
expect_err 2 "motif-gen --motif house6" "house takes no size"
expect_err 2 "motif-gen --motif fan3" "the size of fan is 4 to 1000"
expect_err 2 "motif-gen --motif house:0" "the count after ':' must be an integer"
expect_err 2 "motif-gen --motif house:x" "the count after ':'"
expect_err 2 "motif-gen --motif house --motif house:3" "house given twice"
expect_err 2 "motif-gen --motif grid100" "classes exceed the limit 1000"
expect_err 2 "motif-gen --motif house:301" "--attach uniform: 301 motifs but 300 base nodes"
expect 0 "motif-gen --motif house:301 --attach spread -o $T/spread.gs"
expect_err 2 "motif-gen --base cycle --base-nodes 3 --motif house --add-edges 2" "--add-edges: 20 edges to add, but only 18 node pairs"
expect_err 2 "motif-gen --base blob" "--base: 'blob': expected ba, cycle or tree"
expect_err 2 "motif-gen --attach everywhere" "--attach"
expect_err 2 "motif-gen --base-nodes 0" "--base-nodes: 0 is too small"
expect_err 2 "motif-gen --base cycle --base-nodes 2" "a cycle needs at least 3 nodes"
expect_err 2 "motif-gen --ba-m 300" "--ba-m: 300 must be at least 1 and below --base-nodes 300"
expect_err 2 "motif-gen --ba-m 0" "--ba-m: 0 is too small"
expect_err 2 "motif-gen --base cycle --ba-m 3" "--ba-m: applies to --base ba only"
expect_err 2 "motif-gen --preset tree-grid --base-nodes 100 --ba-m 3" "--ba-m: applies to --base ba only"
expect_err 2 "motif-gen --branching 3" "--branching: applies to --base tree only"
expect_err 2 "motif-gen --add-edges -0.1" "--add-edges: -0.1 is too small"
expect_err 2 "motif-gen --add-edges nan" "--add-edges: 'nan' is not finite"
expect_err 2 "motif-gen --remove-edges 1.5" "--remove-edges: 1.5 is too large"
expect_err 2 "motif-gen --preset ba-shape" "--preset: 'ba-shape': expected ba-shapes, cycle-varied"
expect_err 2 "motif-gen --count -1" "--count"
expect_err 2 "motif-gen somefile" "operand"
expect_err 2 "motif-gen --bogus" "unknown option '--bogus'"
expect_err 2 "motif-gen --motif" "needs a value"
check "! motif-gen --motif fan3 >$T/misuse.out 2>/dev/null; test ! -s $T/misuse.out" "misuse writes nothing on stdout"

# ---- the presets: sizes, classes, class counts ----
expect 0 "motif-gen -q -t --preset ba-shapes -s 1 -o $T/ba.txt"
check "grep -q '^@graph id=0 nodes=700 edges=2239 .*generator=motif dataset=ba-shapes preset=ba-shapes .*base=ba base_nodes=300 ba_m=5 motifs=house:80 attach=uniform clean_edges=2035 removed_edges=0 added_edges=204 classes=4 class_names=base,house_top,house_middle,house_bottom' $T/ba.txt" "ba-shapes: 700 nodes, 2035 + 204 edges, 4 classes"
check "[ '$(hist $T/ba.txt)' = '0:300 1:80 2:160 3:160 ' ]" "ba-shapes: 300 base nodes, 80 tops, 160 middles, 160 bottoms"
check "grep -q '^@tensor id=0 name=label rows=700 cols=1 type=i32 columns=label' $T/ba.txt &&
	grep -q '^@tensor id=0 name=motif rows=700 cols=1 type=i32 columns=motif' $T/ba.txt" "label and motif tensors"
expect 0 "motif-gen -q -t --preset cycle-varied -s 1 -o $T/cv.txt"
check "grep -q '^@graph id=0 nodes=192 edges=264 .*base=cycle base_nodes=40 motifs=fan6:8,star6:8,house-x:8 attach=spread clean_edges=264 removed_edges=0 added_edges=0 classes=10 class_names=base,fan6_centre,fan6_blade0,fan6_blade1,fan6_blade2,star6_centre,star6_leaf,house-x_top,house-x_middle,house-x_bottom' $T/cv.txt" "cycle-varied: 192 nodes, 264 edges, 10 classes"
check "[ '$(hist $T/cv.txt)' = '0:40 1:8 2:16 3:16 4:16 5:8 6:48 7:8 8:16 9:16 ' ]" "cycle-varied: class counts"
expect 0 "motif-gen -q -t --preset tree-cycles -o $T/tc.txt"
check "grep -q '^@graph id=0 nodes=871 edges=930 .*base=tree base_nodes=511 branching=2 motifs=cycle6:60 .*classes=2 class_names=base,cycle6_node' $T/tc.txt &&
	[ '$(hist $T/tc.txt)' = '0:511 1:360 ' ]" "tree-cycles: 871 nodes, 2 classes"
expect 0 "motif-gen -q -t --preset tree-grid -o $T/tg.txt"
check "grep -q '^@graph id=0 nodes=1231 edges=1550 .*motifs=grid3:80 .*classes=4 class_names=base,grid3_0_0,grid3_0_1,grid3_1_1' $T/tg.txt &&
	[ '$(hist $T/tg.txt)' = '0:511 1:320 2:320 3:80 ' ]" "tree-grid: 1231 nodes, corners, sides, centres"
# options override the preset; --motif replaces its list
expect 0 "motif-gen -q -t --preset ba-shapes --add-edges 0 --motif star4:10 -o $T/ov.txt"
check "grep -q 'nodes=350 edges=1525 .*motifs=star4:10 .*added_edges=0 classes=3 ' $T/ov.txt" "options override the preset"
check "motif-gen -q --count 3 | gzip -t" "default output is gzip"
expect 0 "motif-gen -q --count 0 -t -o $T/zero.txt"
check "! grep -q '^@graph' $T/zero.txt && grep -q '^@end records=1' $T/zero.txt" "--count 0: an empty stream"

# ---- noise: counts, and the clean graph's edges kept when only adding ----
expect 0 "motif-gen -q -t --add-edges 0 -s 5 -o $T/clean.txt"
expect 0 "motif-gen -q -t --add-edges 0.25 -s 5 -o $T/add.txt"
expect 0 "motif-gen -q -t --remove-edges 0.1 --add-edges 0.1 -s 5 -o $T/both.txt"
check "grep -q 'edges=2544 .*clean_edges=2035 removed_edges=0 added_edges=509 ' $T/add.txt &&
	grep -q 'edges=2035 .*clean_edges=2035 removed_edges=204 added_edges=204 ' $T/both.txt" "noise counts: round(x m0)"
edges() { awk '/^@/ { g = ($0 ~ /^@graph/); next } g { print $1, $2 }' "$1" | sort; }
edges "$T/clean.txt" >"$T/clean.e"
edges "$T/add.txt" >"$T/add.e"
edges "$T/both.txt" >"$T/both.e"
check "[ \$(comm -12 $T/clean.e $T/add.e | wc -l) -eq 2035 ] && [ \$(comm -13 $T/clean.e $T/add.e | wc -l) -eq 509 ]" "--add-edges keeps every clean edge and adds new pairs"
check "[ \$(comm -12 $T/clean.e $T/both.e | wc -l) -eq 1831 ] && [ \$(comm -13 $T/clean.e $T/both.e | wc -l) -eq 204 ]" "--remove-edges removes clean edges, added ones are new"
check "[ '$(hist $T/both.txt)' = '$(hist $T/clean.txt)' ] && [ -n '$(hist $T/both.txt)' ]" "the labels are set before the noise"

# ---- determinism: the same bytes; graph i whatever --count; parts join ----
expect 0 "motif-gen -q --preset ba-shapes -s 7 --count 3 >$T/d1.gs"
expect 0 "motif-gen -q --preset ba-shapes -s 7 --count 3 -j 2 >$T/d2.gs"
same "$T/d1.gs" "$T/d2.gs" "same options and seed: the same bytes (-j 1 and 2)"
motif-gen -q -t --preset cycle-varied --add-edges 0.1 -s 7 --count 6 >"$T/c6.txt"
motif-gen -q -t --preset cycle-varied --add-edges 0.1 -s 7 --count 3 >"$T/c3a.txt"
motif-gen -q -t --preset cycle-varied --add-edges 0.1 -s 7 --count 3 --first-id 3 >"$T/c3b.txt"
{ strip "$T/c3a.txt"; strip "$T/c3b.txt"; } >"$T/c33.txt"
strip "$T/c6.txt" >"$T/c6s.txt"
check "[ \$(grep -c '^@graph' $T/c6s.txt) -eq 6 ]" "six graphs"
same "$T/c33.txt" "$T/c6s.txt" "--first-id 3 continues --count 3"
motif-gen -q -t --preset cycle-varied --add-edges 0.1 -s 8 --count 6 >"$T/s8.txt"
strip "$T/s8.txt" >"$T/s8s.txt"
check "! cmp -s $T/c6s.txt $T/s8s.txt" "seeds 7 and 8 differ"
check "[ \$(grep -c '^@graph.*stream=5 ' $T/c6.txt) -eq 1 ] && ! cmp -s $T/clean.txt $T/ba.txt" "each graph records its stream"

# ---- the roles against networkx (independent of motif-gen's code) ----
if [ -x $PY ] && $PY -c 'import networkx' 2>/dev/null; then
	for p in ba-shapes cycle-varied tree-cycles tree-grid; do
		expect 0 "motif-gen -q -t --preset $p --add-edges 0 -s 3 --count 2 >$T/nx-$p.txt"
		expect 0 "$PY $TOP/tests/cli/motif_check.py $T/nx-$p.txt >$T/nx-$p.out"
	done
	expect 0 "motif-gen -q -t --base tree --branching 3 --base-nodes 120 --motif clique5:3 --motif grid2:2 --motif grid4:2 --motif fan7:3 --motif star2:4 --motif cycle3:2 --motif house:3 --motif house-x:2 -s 9 >$T/nx-mix.txt"
	expect 0 "$PY $TOP/tests/cli/motif_check.py $T/nx-mix.txt >$T/nx-mix.out"
	check "grep -q 'graph 0: .* 21 motifs: ok' $T/nx-mix.out" "every kind checked"
	# the check fails on one wrong label: a house's top (class 1) made a bottom (3)
	awk '/name=label/ { on = 1; print; next } /^@/ { on = 0 } on && !done && $1 == 1 { print 3; done = 1; next } { print }' \
		"$T/nx-ba-shapes.txt" >"$T/nx-bad.txt"
	check "! $PY $TOP/tests/cli/motif_check.py $T/nx-bad.txt >$T/nx-bad.out && grep -q 'orbit says otherwise' $T/nx-bad.out" \
		"motif_check.py catches one wrong label"
else
	echo "motif-gen.test.sh: /usr/bin/python3 with networkx not found, networkx check skipped"
fi

# ---- programs together: features, centralities, embeddings, adaptation ----
expect 0 "motif-gen -q --preset ba-shapes -s 2 | nodefeat -q | centrality -q | gcn-embed -q -j 2 -t >$T/emb.txt"
check "grep -q '^@tensor id=0 name=embedding rows=700 ' $T/emb.txt && grep -q '^@tensor id=0 name=label rows=700 ' $T/emb.txt &&
	grep -q '^@tensor id=0 name=features rows=700 ' $T/emb.txt && grep -q '^@tensor id=0 name=centrality rows=700 ' $T/emb.txt" \
	"motif-gen | nodefeat | centrality | gcn-embed: every record of the graph"
expect 0 "motif-gen -q --preset tree-grid -s 2 | gcn-adapt -q -j 2 --runs 1 --epochs 3 --val 100 --test 200 -t >$T/pred.txt"
check "grep -q '^@pairs\|^@tensor.*name=pred' $T/pred.txt && evalf1 -q $T/pred.txt | grep -q '4 classes'" "gcn-adapt --task node reads the labels and classes"

# ---- errors: write failures, -o; progress ----
expect_err 1 "motif-gen -q --count 20 >/dev/full" "write error"
expect_err 1 "motif-gen -q -o $T/nodir/x.gs" "nodir"
check "motif-gen --count 3 -o $T/p.gs 2>&1 | wc -c | grep -qx 0" "no progress when stderr is not a terminal"
check "motif-gen --progress --count 3 -o $T/p.gs 2>&1 | grep -q '^motif-gen: 3/3 graphs'" "--progress forces it"
check "motif-gen -q --progress --count 3 -o $T/p.gs 2>&1 | wc -c | grep -qx 0" "-q silences it"
