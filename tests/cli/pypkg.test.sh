# pypkg.test.sh - the package gnnpipe (python/gnnpipe, issue 48 item 7)
# against the programs: networkx graphs to streams and back, names,
# classes with their names and graph labels kept through the programs;
# networkx's GML through graph-import --label; PyTorch Geometric's layout
# (torch_geometric's Data where it is installed, the plain fallback
# always); the feature stage and gcn-embed called from Python; an adapted
# model's head in PyTorch against gcn-adapt --predict (node task with both
# heads, graph task, link task).  Debian's python3 with python3-numpy,
# python3-networkx and python3-torch (mk/deps.sh numpy installs them);
# without them each part says it is skipped.  The checks are
# tests/cli/pypkg_check.py's.  Sourced by run.sh with lib.sh.
T="$TMPD/pypkg"
mkdir -p "$T"
PY=/usr/bin/python3	# Debian's
CHK="$TOP/tests/cli/pypkg_check.py"
export PYTHONPATH="$TOP/python"

if [ ! -x "$PY" ] || ! "$PY" -c 'import numpy, networkx' 2>/dev/null; then
	skip "pypkg.test.sh: no $PY with numpy and networkx (Debian: python3-numpy python3-networkx): the package gnnpipe was not tested"
	return 0 2>/dev/null || exit 0
fi

# ---- the package ----
check "cd $T && $PY -c 'import sys, gnnpipe, gnnstream
assert gnnpipe.stream is gnnstream and gnnpipe.Writer is gnnstream.Writer
sys.exit(\"torch\" in sys.modules)'" \
	"import gnnpipe: gnnstream inside it, PyTorch not imported until asked for"

# ---- networkx to the programs and back ----
run_ok "from_networkx and write" "$PY" "$CHK" nx-write "$T"
# the programs read what Python wrote, and pass on every record: names,
# classes with their names, graph labels, edge labels
nodefeat -q --tsv "$T/nx.gs" >"$T/nx.tsv"
check "[ \"\$(sed -n 3p $T/nx.tsv | cut -f 2)\" = 'Zoë Müller' ] && [ \"\$(sed -n 6p $T/nx.tsv | cut -f 2)\" = 'a b' ] &&
	grep -q '^# graph 1' $T/nx.tsv" "nodefeat --tsv prints the node names from_networkx wrote"
nodefeat -q -t "$T/nx.gs" >"$T/through.txt"
check "grep -q '^@tensor id=0 name=club rows=6 cols=1 type=i32 .*classes=2 class_names=\"Mr. Hi,officer\"' $T/through.txt &&
	grep -q '^@label id=0 name=kind value=1 .*class_names=path,social' $T/through.txt &&
	grep -q '^@label id=1 name=size value=4 ' $T/through.txt && grep -q '^@graph id=0 nodes=6 edges=6 labels=i32 ' $T/through.txt &&
	grep -q '^@tensor id=0 name=pos rows=6 cols=2 type=f64' $T/through.txt" \
	"the programs pass on the classes and their names, the graph labels, edge labels and tensors Python wrote"
nodefeat -q "$T/nx.txt" >"$T/through.gs"
run_ok "to_networkx of what the programs passed on: the networkx graphs written" "$PY" "$CHK" nx-back "$T"
check "grep -v '^@pg\|^@end\|^##' $T/through.txt | sed 's/ pg=[0-9a-f]*//' >$T/t1 &&
	nodefeat -q -t $T/again.gs | grep -v '^@pg\|^@end\|^##' | sed 's/ pg=[0-9a-f]*//' | cmp -s - $T/t1" \
	"to_networkx then from_networkx: the same records"
# networkx's GML (entities, text classes) read by graph-import --label:
# the names and classes to_networkx gives are networkx's own
"$PY" -c '
import sys, networkx as nx
G = nx.Graph()
G.add_edges_from([("Zoë Müller", "TexasA&M"), ("TexasA&M", "b"), ("b", "Zoë Müller"), ("b", "c"), ("c", "d")])
for v, c in zip(G, ["l", "n", "c", "l", "n"]):
    G.nodes[v]["value"] = c
nx.write_gml(G, sys.argv[1])' "$T/nx.gml"
expect 0 "graph-import -q -f gml --label value -o $T/gml.gs $T/nx.gml"
run_ok "networkx's GML through graph-import --label: to_networkx gives its names and classes" "$PY" "$CHK" gml "$T/nx.gml" "$T/gml.gs"
# bad input: one line, never a silent wrong result, no file left
run_ok "from_networkx and write refuse bad graphs with one line" "$PY" "$CHK" bad "$T"
run_ok "a program not in PATH: FileNotFoundError that says so" "$PY" "$CHK" nopath

# ---- the feature stage and gcn-embed, from Python ----
M="$TOP/models/gcn-pretrain.gs"
dcbm-gen -q --count 3 -s 7 --nodes 40..200 >"$T/e.gs"
nodefeat -q "$T/e.gs" >"$T/e.nf.gs"
expect 0 "gcn-embed -q -j 1 --precision fp32 --model $M --npy $T/e.c.npy $T/e.gs"
# small models: pre-trained on the paper's stage and on a command, adapted
TR="-q -j 1 -s 1 --hidden 16 --epochs 1 --batch 4 --validation 2 --precision fp32"
dcbm-gen -q -s 2 --count 8 --nodes 40..60 | centrality -q >"$T/tr.gs"
expect 0 "gcn-train $TR -o $T/m.gs $T/tr.gs"
expect 0 "gcn-train $TR --features 'nodefeat -q --set rwse --rw-steps 4' -o $T/mcmd.gs $T/tr.gs"
dcbm-gen -q -s 5 --count 1 --nodes 300 --clusters 3 --p-div-q 6 >"$T/g.gs"
AD="-q -j 1 --precision fp32 --model $T/m.gs --label cluster --runs 2 --val 50 --test 100 --train-per-class 10"
expect 0 "gcn-adapt $AD --save-model $T/a-node.gs -o /dev/null $T/g.gs"
if ! "$PY" -c 'import torch' 2>/dev/null; then
	skip "pypkg.test.sh: no torch in $PY (Debian: python3-torch): to_pyg, the features' rows and the adapted head were not tested"
	return 0 2>/dev/null || exit 0
fi
run_ok "features() and embed(): nodefeat's values, gcn-embed's rows" "$PY" "$CHK" features "$T" "$M" "$T/a-node.gs" "$T/mcmd.gs"

# ---- PyTorch Geometric's layout ----
nodefeat -q "$T/nx.gs" >"$T/feat.gs"
run_ok "to_pyg: edge_index (2, 2m) int64 both ways, x, y, num_nodes" "$PY" "$CHK" pyg "$T"

# ---- an adapted model's head in PyTorch = gcn-adapt --predict ----
expect 0 "gcn-adapt $AD --head sage --save-model $T/a-sage.gs -o /dev/null $T/g.gs"
# a graph task and a link task, their graphs written from networkx
"$PY" -c '
import sys, networkx as nx, gnnpipe
Gs = []
for i in range(40):
    G = nx.connected_watts_strogatz_graph(30 + i % 7, 4, 0.05 if i % 2 else 0.6, seed=i)
    G.graph["kind"] = "ring" if i % 2 else "random"
    Gs.append(G)
gnnpipe.write(sys.argv[1], Gs)
G = nx.barabasi_albert_graph(200, 3, seed=3)
for u, v in G.edges:
    G.edges[u, v]["r"] = 1 + (G.degree(u) + G.degree(v)) % 3
gnnpipe.write(sys.argv[2], gnnpipe.from_networkx(G, edge_label="r"))' "$T/gt.gs" "$T/lk.gs"
expect 0 "gcn-adapt -q -j 1 --precision fp32 --model $T/m.gs --task graph --label kind --runs 2 --save-model $T/a-graph.gs -o $T/gt-runs.gs $T/gt.gs"
check "grep -q 'class_names=random,ring' \$(nodefeat -q -t -o $T/gt-runs.txt $T/gt-runs.gs; echo $T/gt-runs.txt)" \
	"graph labels from networkx's text: gcn-adapt names the classes"
expect 0 "gcn-adapt -q -j 1 --precision fp32 --model $T/m.gs --task link --runs 1 --save-model $T/a-link.gs -o /dev/null $T/lk.gs"
for t in node:g sage:g graph:gt link:lk; do
	expect 0 "gcn-adapt -q -j 1 --predict --model $T/a-${t%%:*}.gs -o $T/p-${t%%:*}.gs $T/${t#*:}.gs"
	run_ok "gnnpipe_torch.Adapted (${t%%:*}) = gcn-adapt --predict, to 1e-4" "$PY" "$CHK" head "$T/a-${t%%:*}.gs" "$T/p-${t%%:*}.gs" "$T/${t#*:}.gs"
done
