# userfiles.test.sh - users' graph files as they are (issue 48, items 1-5):
# a graph file's node attribute as the class (graph-import --label), class
# names carried to gcn-adapt's and evalf1's output, names from networkx's
# and igraph's GML and GraphML (entities decoded, igraph's 'name'), and
# the edge-list rules (third column, header line, CSV, names with blanks).
# The fixtures are written here: a football-like GML of 12 teams.
T="$TMPD/userfiles"
mkdir -p "$T"
PY=/usr/bin/python3
M="$TOP/models/gcn-pretrain.gs"

# ---- a football-like GML (networkx's way of writing it, by hand) ----
{
	echo 'graph ['
	i=0
	for t in Ames Baylor Clemson Duke Emory Fresno Georgia Harvard Idaho Jackson Kent Lehigh; do
		c=$((i % 3))
		set -- West East South
		shift $c
		printf '  node [\n    id %d\n    label "%s"\n    value %d\n    conf "%s"\n  ]\n' $i $t $c "$1"
		i=$((i + 1))
	done
	for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
		for j in 0 1 2 3 4 5 6 7 8 9 10 11; do
			[ $j -gt $i ] && { [ $((i % 3)) = $((j % 3)) ] || [ $(((i + j) % 5)) = 0 ]; } &&
				printf '  edge [\n    source %d\n    target %d\n  ]\n' $i $j
		done
	done
	echo ']'
} >"$T/fb.gml"

# item 1: a numeric and a text attribute as the class
expect 0 "graph-import -t -f gml --label value $T/fb.gml >$T/v.txt"
check "grep -q '^@tensor id=0 name=label rows=12 cols=1 type=i32 columns=label .*column=value classes=3 class_names=0,1,2 unlabelled=0' $T/v.txt" \
	"gml --label value: the numeric attribute as the class"
check "! grep -q 'columns=value' $T/v.txt" "--label value: not an attributes column as well"
expect 0 "graph-import -q -t -f gml --label conf $T/fb.gml >$T/c.txt"
check "grep -q 'name=label .*column=conf classes=3 class_names=East,South,West ' $T/c.txt &&
	[ \"\$(awk '/name=label/ { b = 1; next } /^@/ { b = 0 } b' $T/c.txt | head -n 3 | tr '\n' ,)\" = '2,0,1,' ]" \
	"gml --label conf: a text attribute as the class, its values the class names"
expect_err 1 "graph-import -f gml --label nope $T/fb.gml" "--label: no node attribute 'nope' (the nodes have: id, label, value, conf)"
expect_err 2 "graph-import -f edgelist --label x $T/fb.gml" "--label is for igraph's formats"
sed '/conf "East"/d' "$T/fb.gml" >"$T/part.gml"
expect_err 0 "graph-import -t -f gml --label conf $T/part.gml >$T/part.txt" "--label conf: 4 node(s) have no value: no class (-1)"
check "grep -q 'classes=2 class_names=South,West unlabelled=4' $T/part.txt" "a node without the attribute has no class"

# items 1 and 2: the new user's three commands, class names to the end
expect 0 "graph-import -q -f gml --label conf -o $T/fb.gs $T/fb.gml"
expect 0 "gcn-adapt -q --model $M --runs 2 --epochs 10 --train-per-class 2 --val 3 --test 3 --save-model $T/m.gs -o $T/p.gs $T/fb.gs"
expect 0 "gcn-adapt -q --predict --model $T/m.gs --tsv $T/fb.gs >$T/pred.tsv"
check "head -n 1 $T/pred.tsv | grep -q '	true_name	pred_name\$' && [ \$(grep -c '	Ames	2	[0-2]	.*	West	\(East\|South\|West\)\$' $T/pred.tsv) = 1 ]" \
	"gcn-adapt --predict --tsv: each node's name, true and predicted class names"
expect 0 "evalf1 $T/p.gs | grep -q '^classes: 0 East, 1 South, 2 West\$'" "evalf1 names the classes"
expect 0 "evalf1 --format yaml $T/p.gs | grep -q '^class_names: \"East,South,West\"\$'"
expect 0 "gcn-adapt -q --model $M --runs 1 --epochs 5 --train-per-class 2 --val 3 --test 3 --tsv $T/fb.gs | head -n 2 | tail -n 1 | grep -q '	\(East\|South\|West\)	\(East\|South\|West\)\$'" \
	"gcn-adapt --tsv: the test predictions with class names"
expect 0 "gcn-adapt -q --model $M --runs 1 --epochs 5 --train-per-class 2 --val 3 --test 3 -t $T/fb.gs | grep -q '^@tensor id=0 name=predictions .*classes=3 class_names=East,South,West '" \
	"the predictions record carries class_names"
if [ -x $PY ] && $PY -c 'import numpy' 2>/dev/null; then
	expect 0 "$PY -c 'import sys; sys.path.insert(0, \"$TOP/python\"); import gnnstream
for r in gnnstream.read(\"$T/p.gs\"):
    if getattr(r, \"name\", \"\") == \"predictions\": assert r.attrs[\"class_names\"] == \"East,South,West\", r.attrs; print(\"ok\")' | grep -q ok" \
		"gnnstream.py reads class_names"
fi

# ---- item 3: names from networkx's and igraph's files ----
printf 'graph [\n  node [\n    id 0\n    label "Zo&#235; M&#252;ller"\n  ]\n  node [\n    id 1\n    label "Texas A&#38;M"\n  ]\n  edge [\n    source 0\n    target 1\n  ]\n]\n' >"$T/nx.gml"
expect 0 "graph-import -t -f gml $T/nx.gml >$T/nx.txt"
check "[ \"\$(awk '/^@names/ { b = 1; next } /^@/ { b = 0 } b' $T/nx.txt | tr '\n' ,)\" = 'Zoë Müller,Texas A&M,' ] && [ ! -s $LIB_ERR ]" \
	"networkx's GML: character entities decoded, no warning"
printf 'Creator "igraph"\ngraph\n[\n  directed 0\n  node\n  [\n    id 0\n    name "TexasA&amp;M"\n  ]\n  node\n  [\n    id 1\n    name "Rice"\n  ]\n  edge\n  [\n    source 1\n    target 0\n  ]\n]\n' >"$T/ig.gml"
expect 0 "graph-import -q -t -f gml $T/ig.gml >$T/ig.txt"
check "[ \"\$(awk '/^@names/ { b = 1; next } /^@/ { b = 0 } b' $T/ig.txt | tr '\n' ,)\" = 'TexasA&M,Rice,' ]" "igraph's GML: 'name' as the node name, decoded"
cat >"$T/ig.graphml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="v_name" for="node" attr.name="name" attr.type="string"/>
  <graph id="G" edgedefault="undirected">
    <node id="n0"><data key="v_name">Zoë Müller</data></node>
    <node id="n1"><data key="v_name">Texas A&amp;M</data></node>
    <edge source="n0" target="n1"></edge>
  </graph>
</graphml>
XML
expect 0 "graph-import -t -f graphml $T/ig.graphml >$T/igml.txt"
check "[ \"\$(awk '/^@names/ { b = 1; next } /^@/ { b = 0 } b' $T/igml.txt | tr '\n' ,)\" = 'Zoë Müller,Texas A&M,' ]" "igraph's GraphML: its 'name' key names the nodes, not n0, n1"
sed 's/node id="n0"/node id="Zo\&amp;e"/; s/source="n0"/source="Zo\&amp;e"/; s/ *<data key="v_name">[^<]*<\/data>//' "$T/ig.graphml" >"$T/nx.graphml"
expect 0 "graph-import -q -t -f graphml $T/nx.graphml >$T/nxml.txt"
check "awk '/^@names/ { b = 1; next } /^@/ { b = 0 } b' $T/nxml.txt | grep -qx 'Zo&e'" "GraphML ids: an '&' is itself, not &#38;"
printf 'graph [ node [ id 10 ] node [ id 20 ] edge [ source 10 target 20 ] ]\n' >"$T/ids.gml"
expect_err 0 "graph-import -t -f gml $T/ids.gml >/dev/null" "the nodes have no label or name: they are named by their ids"
if [ -x $PY ] && $PY -c 'import networkx' 2>/dev/null; then
	$PY -c "
import networkx as nx
G = nx.Graph(); G.add_node('Zoë Müller', party='l'); G.add_node('Texas A&M', party='c'); G.add_edge('Zoë Müller', 'Texas A&M')
nx.write_gml(G, '$T/w.gml'); nx.write_graphml(G, '$T/w.graphml')"
	for f in gml graphml; do
		expect 0 "graph-import -q -f $f --label party $T/w.$f | gcn-embed -q --model $M --tsv >$T/w-$f.tsv"
		check "[ \"\$(grep -v '^#' $T/w-$f.tsv | cut -f 4 | tail -n 2 | tr '\n' ,)\" = 'Zoë Müller,Texas A&M,' ]" "networkx's $f to gcn-embed --tsv: the same names"
	done
else
	skip "userfiles.test.sh: files written by networkx itself: /usr/bin/python3 has no networkx"
fi
printf 'Zoë Müller\tTexas A&M\nTexas A&M\tBob\n' >"$T/tab.el"
expect 0 "graph-import -q -t -f edgelist $T/tab.el >$T/tab.txt"
check "[ \"\$(awk '/^@names/ { b = 1; next } /^@/ { b = 0 } b' $T/tab.txt | tr '\n' ,)\" = 'Zoë Müller,Texas A&M,Bob,' ]" "edge list: tab-separated names with blanks"
printf 'Zoë Müller Texas A&M\n' >"$T/blank.el"
expect_err 1 "graph-import -f edgelist $T/blank.el" "(names with blanks: separate the fields by tabs, or use GraphML)"
expect_err 1 "nodefeat $T/blank.el" "names with blanks: graph-import -f edgelist with tab-separated fields, or GraphML"

# ---- item 4: a CSV is not an edge list; a header line ----
printf 'team,conference\nAmes,West\nBaylor,East\nClemson,West\n' >"$T/table.csv"
expect_err 0 "gcn-embed -q0 --model $M -o $T/x.gs $T/table.csv 2>&1 >/dev/null; gcn-embed --model $M -o $T/x.gs $T/table.csv" \
	"edge list: comma-separated lines, each read as an edge (a CSV table? its classes go in with graph-attach --label)"
expect_err 0 "graph-import -f edgelist -o $T/x.gs $T/table.csv" "comma-separated lines"
printf 'source target\n1 2\n2 3\n' >"$T/hdr.el"
expect_err 1 "gcn-embed --model $M -o $T/x.gs $T/hdr.el" "line 1: 'source target' looks like a header: the other lines hold integer ids"
expect_err 1 "graph-import -f edgelist $T/hdr.el" "line 1: 'source target' looks like a header"
printf 'a b\n7 a\n' >"$T/named.el"
expect 0 "graph-import -q -f edgelist $T/named.el >/dev/null && nodefeat -q $T/named.el >/dev/null" "names on line 1 used again below: not a header"

# ---- item 5: one rule for a third column ----
printf '1 2 0.5\n2 3 1\n' >"$T/w.el"
for c in "nodefeat" "graph-import -f edgelist"; do
	expect_err 1 "$c $T/w.el" "line 1: third column '0.5' is not an integer: it is an edge label, and weights are not kept (drop the column: cut -f1,2)"
done
printf '0 1 3\n1 2 1\n' >"$T/l.el"
expect_err 0 "nodefeat -o $T/l.gs $T/l.el" "edge list: the third column read as integer edge labels (weights are not kept)"
expect_err 0 "graph-import -f edgelist -o $T/l.gs $T/l.el" "edge list: the third column read as integer edge labels (weights are not kept)"
