# graph-attach.test.sh - tables onto graphs (issue 40): karate club's 'club'
# labels, half hidden, from the TSV a networkx user writes, through
# graph-attach into gcn-adapt's predictions; Les Miserables' communities
# and an attribute by node name into gcn-train's cluster task; .npy
# tables; graph labels of a set of graphs; and graph-import -f linqs with a
# header line and -1 labels.  Sourced by run.sh with lib.sh.
#
# The fixtures in tests/cli/data were written once by networkx 2.8.8
# (python3-networkx) as a user would write them:
#   G = nx.karate_club_graph(): karate.el ("u v" per edge),
#       karate-club.tsv ("node<TAB>club", every node's club);
#   L = nx.les_miserables_graph(): lesmis.el ("u<TAB>v", named nodes),
#       lesmis-nodes.csv (name, community from
#       nx.community.greedy_modularity_communities(L, weight='weight'),
#       weighted_degree), rows sorted by name.
# Where networkx is installed the test remakes them and compares.
T="$TMPD/attach"
D="$TOP/tests/cli/data"
M="$TOP/models/gcn-pretrain.gs"
PY=/usr/bin/python3
mkdir -p "$T"

# body FILE KIND NAME: the body lines of the first record 'KIND ... name=NAME' of a text stream
body() { awk -v k="@$2" -v n="name=$3" '/^@/ { on = 0 } on { print } $1 == k && index($0 " ", " " n " ") { on = 1 }' "$1"; }

# ---- the fixtures are what networkx writes ----
if "$PY" -c 'import networkx' 2>/dev/null; then
	"$PY" - "$T" <<'EOF'
import sys, networkx as nx
t = sys.argv[1]
G = nx.karate_club_graph()
with open(t + '/karate.el', 'w') as f:
    for u, v in G.edges():
        f.write(f'{u} {v}\n')
with open(t + '/karate-club.tsv', 'w') as f:
    f.write('node\tclub\n')
    for n, d in G.nodes(data=True):
        f.write(f'{n}\t{d["club"]}\n')
L = nx.les_miserables_graph()
with open(t + '/lesmis.el', 'w') as f:
    for u, v in L.edges():
        f.write(f'{u}\t{v}\n')
cid = {n: i for i, c in enumerate(nx.community.greedy_modularity_communities(L, weight='weight')) for n in c}
with open(t + '/lesmis-nodes.csv', 'w') as f:
    f.write('name,community,weighted_degree\n')
    for n in sorted(L.nodes()):
        f.write(f'{n},{cid[n]},{L.degree(n, weight="weight")}\n')
EOF
	for f in karate.el karate-club.tsv lesmis.el lesmis-nodes.csv; do
		same "$T/$f" "$D/$f" "fixture $f is networkx's"
	done
else
	skip "graph-attach.test.sh: the fixtures not compared with networkx: no python3-networkx at $PY"
fi

# ---- karate: 'club' labels, half hidden (odd nodes' cells empty) ----
awk -F'\t' 'NR > 1 && $1 % 2 { $2 = "" } { print $1 "\t" $2 }' "$D/karate-club.tsv" >"$T/half.tsv"
expect 0 "graph-attach --label club -t -o $T/k.txt $T/half.tsv $D/karate.el" "karate: the table's classes"
check "grep -q '^@tensor id=0 name=label rows=34 cols=1 type=i32 columns=label .*column=club classes=2 class_names=\"Mr. Hi,Officer\" unlabelled=17' $T/k.txt" \
	"karate: label tensor header: 2 classes in sorted order, 17 unlabelled"
# the classes the table gives, node by node (Mr. Hi 0, Officer 1, hidden -1)
awk -F'\t' 'NR > 1 { print ($2 == "" ? -1 : $2 == "Mr. Hi" ? 0 : 1) }' "$T/half.tsv" >"$T/k.want"
body "$T/k.txt" tensor label >"$T/k.got"
same "$T/k.got" "$T/k.want" "karate: label of each node"
# the hidden ones are nodes the table leaves out, or cells saying '?'
awk -F'\t' 'NR == 1 || $2 != ""' "$T/half.tsv" >"$T/rows.tsv"
expect_err 0 "graph-attach --label club -t -o $T/k2.txt $T/rows.tsv $D/karate.el" \
	"graph 0: 17 of 34 nodes are not in $T/rows.tsv: class -1 (none)"
body "$T/k2.txt" tensor label >"$T/k2.got"
same "$T/k2.got" "$T/k.want" "karate: nodes missing from the table get -1"
awk -F'\t' '{ print $1 "\t" ($2 == "" ? "?" : $2) }' "$T/half.tsv" >"$T/q.tsv"
expect 0 "graph-attach --label club --unknown '?' -t -o $T/k3.txt $T/q.tsv $D/karate.el"
body "$T/k3.txt" tensor label >"$T/k3.got"
same "$T/k3.got" "$T/k.want" "karate: --unknown '?'"
expect 0 "graph-attach --label club -t $T/q.tsv $D/karate.el | grep -q 'classes=3 class_names=\"?,Mr. Hi,Officer\"'" \
	"without --unknown '?' is a class"
# -1 is no class by default (sklearn's and graph-import's way); --unknown '' makes it one
awk -F'\t' '{ print $1 "\t" ($2 == "" ? -1 : $2) }' "$T/half.tsv" >"$T/m1.tsv"
expect 0 "graph-attach --label club -t -o $T/k4.txt $T/m1.tsv $D/karate.el"
body "$T/k4.txt" tensor label >"$T/k4.got"
same "$T/k4.got" "$T/k.want" "karate: -1 cells are no class"
expect 0 "graph-attach --label club --unknown '' -t $T/m1.tsv $D/karate.el | grep -q 'classes=3 class_names=\"-1,Mr. Hi,Officer\"'"

# into gcn-adapt: train on the labelled half, then label every node
expect 0 "graph-attach -q --label club --label-name club -o $T/k.gs $T/half.tsv $D/karate.el"
expect 0 "gcn-adapt -q -j 2 -s 1 --model $M --label club --epochs 5 --runs 1 --train-per-class 4 --val 3 --test 6 --save-model $T/k.model.gs -t -o $T/k.pred.txt $T/k.gs"
check "grep -q '^@tensor id=0 name=predictions rows=6 ' $T/k.pred.txt" "karate: 6 test predictions among the labelled nodes"
expect 0 "gcn-adapt -q -j 2 --predict --model $T/k.model.gs -t -o $T/k.all.txt $T/k.gs"
check "grep -q '^@tensor id=0 name=predictions rows=34 ' $T/k.all.txt" "karate: --predict labels all 34 nodes"
body "$T/k.all.txt" tensor predictions | awk '$2 == -1' | wc -l >"$T/k.hidden"
check "test \$(cat $T/k.hidden) -eq 17" \
	"karate: the 17 hidden nodes are predicted with true class -1"

# ---- Les Miserables: named embeddings from the edge list networkx wrote
# (issue 40: a user's names, from files to embeddings with no stream by
# hand); the names in order of first appearance, as the reader numbers them ----
awk -F'\t' '{ for (i = 1; i <= 2; i++) if (!($i in seen)) { seen[$i] = 1; print $i } }' "$D/lesmis.el" >"$T/lm.order"
expect 0 "gcn-embed -q -j 2 --model $M --precision fp32 --tsv $D/lesmis.el >$T/lm-emb.tsv"
check "[ \"\$(head -1 $T/lm-emb.tsv | cut -f1-4)\" = \"\$(printf 'graph\tid\tnode\tname')\" ] &&
	[ \$(sed 1d $T/lm-emb.tsv | wc -l) -eq 77 ]" "lesmis: an embedding row for each of the 77 named nodes"
sed 1d "$T/lm-emb.tsv" | cut -f4 >"$T/lm-emb.names"
same "$T/lm-emb.names" "$T/lm.order" "lesmis: each embedding row carries its node's name"
expect 0 "gcn-embed -q -j 2 --model $M --precision fp32 --npy $T/lm.npy --names $T/lm.names $D/lesmis.el"
same "$T/lm.names" "$T/lm.order" "lesmis: --names beside the .npy, a name a row"

# ---- Les Miserables by name: communities as gcn-train's clusters ----
expect 0 "graph-attach --cluster community --attributes weighted_degree -t -o $T/lm.txt $D/lesmis-nodes.csv $D/lesmis.el"
check "grep -q '^@tensor id=0 name=cluster rows=77 cols=1 type=i32 columns=cluster .*clusters=5' $T/lm.txt" "lesmis: cluster tensor"
check "grep -q '^@tensor id=0 name=attributes rows=77 cols=1 type=f32 columns=weighted_degree' $T/lm.txt" "lesmis: attributes tensor"
# node i's community by its name (the names record) is the CSV's
awk '/^@names/ { on = 1; next } /^@/ { on = 0 } on' "$T/lm.txt" >"$T/lm.names"
body "$T/lm.txt" tensor cluster >"$T/lm.cl"
paste "$T/lm.names" "$T/lm.cl" | sort >"$T/lm.got"
awk -F, 'NR > 1 { print $1 "\t" $2 }' "$D/lesmis-nodes.csv" | sort >"$T/lm.want"
same "$T/lm.got" "$T/lm.want" "lesmis: each named node's community"
# the table's row order does not matter
{ head -n 1 "$D/lesmis-nodes.csv"; tail -n +2 "$D/lesmis-nodes.csv" | sort -r; } >"$T/rev.csv"
expect 0 "graph-attach --cluster community --attributes weighted_degree -t $T/rev.csv $D/lesmis.el | grep -v '^@pg' >$T/lm2.txt"
check "grep -v '^@pg' $T/lm.txt | sed 's/ pg=[0-9a-f]*//; s/^@end.*//' >$T/lm1.txt; sed 's/ pg=[0-9a-f]*//; s/^@end.*//' $T/lm2.txt | cmp -s - $T/lm1.txt" \
	"lesmis: rows in another order, the same records"
expect 0 "graph-attach -q --cluster community -o $T/lm.gs $D/lesmis-nodes.csv $D/lesmis.el"
expect 0 "gcn-train -q -j 1 -s 1 --tasks cluster --hidden 8 --epochs 1 --batch 1 --validation 1 -o $T/lm.model.gs $T/lm.gs $T/lm.gs" \
	"lesmis: gcn-train's cluster task reads the clusters"
expect_err 1 "gcn-train -q -j 1 -s 1 --tasks cluster --hidden 8 --epochs 1 --batch 1 --validation 1 -o $T/x.gs $D/lesmis.el $D/lesmis.el" \
	"no 'cluster' tensor"
# by id, a graph with names needs --by name (the default)
expect_err 1 "graph-attach --by id --cluster community $D/lesmis-nodes.csv $D/lesmis.el" "'Anzelma' is not an integer"

# ---- CSV: quoted fields, a semicolon table, --delimiter ----
printf 'name,club\n"Myriel",a\n"Napoleon",b\n"Javert",""\n' >"$T/quoted.csv"
expect 0 "graph-attach -q --label club -t $T/quoted.csv $D/lesmis.el | grep -q 'classes=2 class_names=a,b unlabelled=75'" "quoted CSV"
printf 'name;club\nMyriel;"a;b"\n' >"$T/semi.csv"
expect 0 "graph-attach -q --label club -t $T/semi.csv $D/lesmis.el | grep -q 'class_names=a;b'" "semicolons, a quoted ;"
printf 'name club\nMyriel a\n' >"$T/blank.txt"
expect 0 "graph-attach -q --label club --delimiter space -t $T/blank.txt $D/lesmis.el | grep -q 'class_names=a '"

# ---- .npy: row i is node i ----
if "$PY" -c 'import numpy' 2>/dev/null; then
	"$PY" - "$T" <<'EOF'
import sys, numpy as np
t = sys.argv[1]
np.save(t + '/y.npy', np.array([i % 3 - 1 for i in range(34)], dtype=np.int64))
np.save(t + '/x.npy', np.arange(68, dtype=np.float32).reshape(34, 2) / 4)
np.save(t + '/x64.npy', np.arange(68, dtype=np.float64).reshape(34, 2) / 4)
np.save(t + '/short.npy', np.zeros(33, dtype=np.int32))
EOF
	expect 0 "graph-attach -t -o $T/y.txt $T/y.npy $D/karate.el" ".npy of integers: labels"
	check "grep -q 'name=label rows=34 .*column=c0 classes=2 class_names=0,1 unlabelled=12' $T/y.txt" ".npy labels: -1 is no class"
	body "$T/y.txt" tensor label >"$T/y.got"
	awk 'BEGIN { for (i = 0; i < 34; i++) print i % 3 - 1 }' >"$T/y.want"
	same "$T/y.got" "$T/y.want" ".npy labels, node by node"
	expect 0 "graph-attach -t -o $T/x.txt $T/x.npy $D/karate.el" ".npy of floats: attributes"
	body "$T/x.txt" tensor attributes | sed -n 3p >"$T/x.got"
	printf '1\t1.25\n' >"$T/x.want"
	same "$T/x.got" "$T/x.want" ".npy attributes: row 2"
	expect 0 "graph-attach -t $T/x64.npy $D/karate.el | grep -q 'name=attributes rows=34 cols=2 type=f32 columns=c0,c1'" "float64 .npy"
	expect_err 1 "graph-attach $T/short.npy $D/karate.el" "33 rows for 34 nodes"
	expect_err 1 "graph-attach --cluster c0 $T/y.npy $D/karate.el" "y.npy: row 0: column 'c0' is empty or '-1' (--unknown)"
else
	skip "graph-attach.test.sh: the .npy checks not run: no python3-numpy at $PY"
fi

# ---- graph labels: a table of graphs, by id or in order ----
expect 0 "graph-import -q -f tu -o $T/tu.gs $D/import-tu"
printf 'graph\tkind\n0\tring\n1\tstar\n2\tring\n' >"$T/g.tsv"
expect 0 "graph-attach --graphs --label kind -t -o $T/g.txt $T/g.tsv $T/tu.gs"
check "test \"\$(grep -c '^@label .*name=label' $T/g.txt)\" -eq 3" "graph labels: one record a graph (the input's replaced)"
check "grep -q '^@label id=0 name=label value=0 .*column=kind classes=2 class_names=ring,star' $T/g.txt && grep -q '^@label id=1 name=label value=1 ' $T/g.txt" \
	"graph labels: values and class names"
printf 'kind\nstar\nring\nring\n' >"$T/go.tsv"
expect 0 "graph-attach --graphs --by order --label kind --label-name kind -t -o $T/go.txt $T/go.tsv $T/tu.gs"
check "grep -q '^@label id=0 name=kind value=1 ' $T/go.txt && grep -q '^@label id=1 name=kind value=0 ' $T/go.txt && test \"\$(grep -c '^@label .*name=label' $T/go.txt)\" -eq 3" \
	"graph labels in row order, beside the input's"
printf 'graph\tkind\n0\tring\n' >"$T/g1.tsv"
expect_err 0 "graph-attach --graphs --label kind -o $T/g1.gs $T/g1.tsv $T/tu.gs" "2 of 3 graphs are not in"
expect 0 "gcn-adapt -q -j 2 -s 1 --task graph --model $M --epochs 2 --runs 1 -o $T/gp.gs $T/g.txt $T/g.txt $T/g.txt $T/g.txt $T/g.txt $T/g.txt $T/g.txt $T/g.txt" \
	"gcn-adapt --task graph reads the label records"

# ---- errors: one line each ----
expect_err 1 "graph-attach --label klub $D/karate-club.tsv $D/karate.el" "no column 'klub' (--label; the columns: node, club)"
printf 'node\tclub\n0\tA\n40\tB\n' >"$T/far.tsv"
expect_err 1 "graph-attach --label club $T/far.tsv $D/karate.el" "far.tsv: line 3: '40' is not a node id of the graph (0 to nodes-1)"
expect_err 0 "graph-attach --label club --skip-unknown -o $T/far.gs $T/far.tsv $D/karate.el" "dropped 1 of 2 rows"
printf 'name,club\nMyriel,a\nJavert,b\nNobody,c\n' >"$T/nobody.csv"
expect_err 1 "graph-attach --label club $T/nobody.csv $D/lesmis.el" "nobody.csv: line 4: 'Nobody' is not a node name of the graph"
printf 'node\tclub\n0\tA\n1\tB\textra\n' >"$T/ragged.tsv"
expect_err 1 "graph-attach --label club $T/ragged.tsv $D/karate.el" "ragged.tsv: line 3: 3 fields, want 2 as in the header"
printf 'node\tclub\n0\tA\n0\tB\n' >"$T/twice.tsv"
expect_err 1 "graph-attach --label club $T/twice.tsv $D/karate.el" "twice.tsv: line 3: '0' again (first on line 2)"
printf 'node\tx\n0\t1.5\n1\tabc\n' >"$T/nan.tsv"
expect_err 1 "graph-attach --attributes x $T/nan.tsv $D/karate.el" "nan.tsv: line 3: column 'x': 'abc' is not a finite number"
expect_err 1 "graph-attach --cluster club $T/half.tsv $D/karate.el" "half.tsv: line 3: column 'club' is empty"
expect_err 1 "graph-attach --cluster club $T/rows.tsv $D/karate.el" "node 1 is not in"
expect_err 1 "graph-attach --label club $D/karate-club.tsv $D/karate.el $D/karate.el" "a second graph (id 0): a node table describes one graph"
expect_err 1 "graph-attach --by name --label club $D/karate-club.tsv $D/karate.el" "has no node names"
printf 'name,club\n"Myriel,a\n' >"$T/open.csv"
expect_err 1 "graph-attach --label club $T/open.csv $D/lesmis.el" "open.csv: line 2: a quoted field is not closed"
expect_err 2 "graph-attach $D/karate-club.tsv $D/karate.el" "nothing to attach"
expect_err 2 "graph-attach --label club" "no table given"
expect_err 2 "graph-attach --graphs --cluster club $T/g.tsv" "--graphs: a table of graphs gives --label only"
expect_err 2 "graph-attach --by order --key node --label club $D/karate-club.tsv" "--by order has no key column"
expect_err 2 "graph-attach --label node $D/karate-club.tsv $D/karate.el" "'node' is the key column"
expect_err 2 "graph-attach --by rank --label club $D/karate-club.tsv" "--by: 'rank': expected name, id or order"
expect_err 2 "graph-attach --label-name cluster --label club $D/karate-club.tsv" "another tensor of graph-attach"

# ---- graph-import -f linqs: a header line, -1 and empty labels ----
{ printf 'node label\n'; awk '{ print $1, $NF }' "$D/import-tiny.content"; } >"$T/hdr.content"
expect_err 0 "graph-import -f linqs -t -o $T/hdr.txt $T/hdr.content $D/import-tiny.cites" "line 1: 'node label' taken for a header line and skipped"
check "grep -q '^@graph id=0 nodes=5 .* classes=3 class_names=Case_Based,Neural_Networks,Theory' $T/hdr.txt" \
	"linqs: a header line is neither a node nor a class"
{ printf 'paper_id\tsubject\n'; awk '{ print $1 "\t" $NF }' "$D/import-tiny.content"; } >"$T/hdr2.content"
expect 0 "graph-import -q -f linqs -t $T/hdr2.content $D/import-tiny.cites | grep -q '^@graph id=0 nodes=5 .* classes=3 '" "linqs: 'paper_id subject'"
# a first line whose class other lines have is a node, whatever its id
printf '7 x\n' >"$T/nohdr.cites"
cat "$D/import-tiny.cites" >>"$T/nohdr.cites"
{ printf 'x Theory\n'; awk '{ print $1, $NF }' "$D/import-tiny.content"; } >"$T/nohdr2.content"
expect 0 "graph-import -f linqs -t $T/nohdr2.content $T/nohdr.cites | grep -q '^@graph id=0 nodes=6 .* classes=3 '" "linqs: a first line whose class others have is a node"
printf '1 0\n2 1\n3 -1\n4 0\n5 1\n' >"$T/m0.content"
printf '1 2\n2 3\n4 5\n' >"$T/m1.cites"
expect 0 "graph-import -f linqs -t $T/m0.content $T/m1.cites | grep -q '^@graph id=0 nodes=5 .* classes=2 unlabelled=1 class_names=0,1'" "linqs: -1 is no class (it was a class '-1')"
printf '1\t0\n2\t1\n3\t-1\n4\t0\n5\t\n' >"$T/m1.content"
expect 0 "graph-import -f linqs -t -o $T/m1.txt $T/m1.content $T/m1.cites"
check "grep -q '^@graph id=0 nodes=5 .* classes=2 unlabelled=2 class_names=0,1' $T/m1.txt" "linqs: -1 and empty labels are no class"
body "$T/m1.txt" tensor label | tr '\n' ' ' >"$T/m1.got"
check "test \"\$(cat $T/m1.got)\" = '0 1 -1 0 -1 '" "linqs: -1 in the label tensor"

# ---- the table from the standard input ----
expect 0 "graph-attach -q --label club -t - $D/karate.el <$T/half.tsv | grep -q 'unlabelled=17'" "the table on the standard input"
expect_err 2 "graph-attach --label club - <$T/half.tsv" "the table and the graphs cannot both be the standard input"
