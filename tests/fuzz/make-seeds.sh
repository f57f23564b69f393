#!/bin/sh
# make-seeds.sh - (re)make the seed corpora of the harnesses added in issue
# 37 with the programs of bin/ (run `make` first):
#   corpus/model   a tiny pre-trained model (text, gzip), its checkpoint, and
#                  adapted models of the node, graph and link tasks
#   corpus/evalf1  predictions records of gcn-adapt (node, graph, link
#                  tasks, --predict) and evalf1's test input
#   corpus/linqs, corpus/tu, corpus/movielens  graph-import's test inputs
#                  (tests/cli/data/import-*) and small slices of the real
#                  datasets, as the files of fuzz_import.h (0x1E NAME\n ...)
#   corpus/edgelist edge lists: plain, labelled, commas, networkx's {...}
#   corpus/featcmd what feature commands write for two graphs of 6..8
#                  nodes (nodefeat, nodefeat --set rwse: binary, gzip,
#                  text), after fuzz_featcmd.c's prefix of graph sizes
# The programs run in a temporary directory on relative names, so the
# seeds' provenance lines name no path of this machine.  Seeds stay small
# (tests/fuzz/README).  Usage: sh tests/fuzz/make-seeds.sh [target ...]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$top/bin:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
[ $# -gt 0 ] || set -- model featcmd evalf1 linqs tu movielens edgelist
c=$top/tests/fuzz/corpus

# a tiny model, its checkpoint, and adaptations of the three tasks (once)
adapt() {
	[ ! -e link.txt ] || return 0
	cp "$c/config/tiny-train.yaml" tiny.yaml
	dcbm-gen -q -s 1 --count 2 --nodes 20 >g.gs
	centrality -q -s 1 g.gs >lab.gs
	gcn-train -q -s 1 --config tiny.yaml --checkpoint ck.txt -t -o m.txt lab.gs
	gcn-train -q -s 1 --config tiny.yaml -o m.gs lab.gs
	# adapted models, heads of width 2, with their predictions
	A="-q -j 1 --model m.gs --epochs 2 --head-width 2 -s 1 -t"
	dcbm-gen -q -s 3 --count 1 --nodes 40 --clusters 2 >n.gs
	gcn-adapt $A --runs 2 --label cluster --val 5 --test 5 --train-per-class 3 \
		-o node.pred --save-model node.txt n.gs
	dcbm-gen -q -s 4 --count 12 --nodes 10..20 -t | awk '
		/^@graph/ { if (g != "") print "@label id=" g " name=label value=" (g == 3 ? -1 : g % 2)
			g = $2; sub(/id=/, "", g) }
		/^@end/ { print "@label id=" g " name=label value=" g % 2; print "@end"; next }
		{ print }' >gl.txt
	gcn-adapt $A --runs 1 --task graph -o graph.pred --save-model graph.txt gl.txt
	gcn-adapt -q -j 1 --predict --model graph.txt -t -o predict.pred gl.txt
	dcbm-gen -q -s 5 --count 1 --nodes 40 -t |
		awk '/^@/ { on = /^@graph/; next } on && NF == 2 { print $1, $2, NR % 2 }' >lu.txt
	gcn-adapt $A --runs 1 --task link -o link.pred --save-model link.txt lu.txt
}

model() {
	adapt
	mkdir -p "$c/model"
	cp m.txt "$c/model/pretrained.txt"
	cp m.gs "$c/model/pretrained-gzip.gs"
	cp ck.txt "$c/model/checkpoint.txt"
	cp node.txt "$c/model/adapted-node.txt"
	cp graph.txt "$c/model/adapted-graph.txt"
	cp link.txt "$c/model/adapted-link.txt"
}

# predictions of two node runs, a graph run, a link run,
# --predict's (text with a true class -1, and binary), and evalf1's hand-made test input
evalf1() {
	adapt
	mkdir -p "$c/evalf1"
	for t in node graph link predict; do
		cp $t.pred "$c/evalf1/$t.txt"
	done
	gcn-adapt -q -j 1 --predict --model node.txt -l 0 -o predict-bin.gs n.gs
	cp predict-bin.gs "$c/evalf1/predict-bin.gs"
	cp "$top/tests/cli/data/eval-two-runs.txt" "$c/evalf1/two-runs.txt"
}

# prefix NAME BYTES...: a file that starts with those bytes (octal)
prefix() {
	f=$1
	shift
	: >"$f"
	for b in "$@"; do printf "\\$b" >>"$f"; done
}

featcmd() {
	mkdir -p "$c/featcmd"
	# two graphs: G = 1 + 1 % 4, then each size less one
	dcbm-gen -q -s 4 --count 2 --nodes 6..8 -t >g.txt
	set -- $(awk '/^@graph/ { n = $3; sub(/nodes=/, "", n); printf "%03o ", n - 1 }' g.txt)
	prefix p 001 "$1" "$2" 000 000
	nodefeat -q -l 0 g.txt | cat p - >"$c/featcmd/paper-bin.gs"
	nodefeat -q g.txt | cat p - >"$c/featcmd/paper-gzip.gs"
	nodefeat -q -t g.txt | cat p - >"$c/featcmd/paper-text.gs"
	nodefeat -q -t --set rwse --rw-steps 3 g.txt | cat p - >"$c/featcmd/rwse-text.gs"
}

# sec NAME FILE: a file of the input (fuzz_import.h), to standard output
sec() {
	printf '\036%s\n' "$1"
	cat "$2"
}
D=$top/tests/cli/data
M=${MIRROR:-$top/../shared/data}	# the raw datasets (data/Makefile)

linqs() {
	mkdir -p "$c/linqs"
	o=$c/linqs
	{ sec d.content $D/import-tiny.content; sec d.cites $D/import-tiny.cites; } >"$o/tiny"
	gzip -n -c $D/import-tiny.content >tc.gz
	{ sec d.content.gz tc.gz; sec d.cites $D/import-tiny.cites; } >"$o/tiny-gzip"
	printf 's' >s
	printf '7\t999\n' | cat $D/import-tiny.cites - >uc
	{ sec d.content $D/import-tiny.content; sec d.cites uc; sec opts s; } >"$o/skip-unknown"
	printf 'D6' >dim
	{ sec d.content $D/import-labels.txt; sec d.cites $D/import-tiny.cites
	  sec d.attr $D/import-attr.txt; sec opts dim; } >"$o/sparse-attributes"
	{ sec d.content $D/import-pubmed.NODE.paper.tab
	  sec d.cites $D/import-pubmed.DIRECTED.cites.tab; } >"$o/pubmed-tab"
	# Cora's first three papers (1,433 words each) and their links
	zcat "$M/cora/cora.content.gz" | head -n 3 >cc
	awk 'NR == FNR { id[$1] = 1; next } ($1 in id) && ($2 in id)' cc "$M/cora/cora.cites" >ci
	[ -s ci ] || head -n 1 cc | awk '{ print $1 "\t" $1 }' >ci
	{ sec d.content cc; sec d.cites ci; } >"$o/cora-3"
}

tu() {
	mkdir -p "$c/tu"
	o=$c/tu
	{ for f in A edge_labels graph_indicator graph_labels node_labels; do
		sec t_$f.txt $D/import-tu_$f.txt; done; } >"$o/labelled"
	gzip -n -c $D/import-tu_A.txt >ta.gz
	{ for f in graph_indicator graph_labels; do sec t_$f.txt $D/import-tu_$f.txt; done
	  sec t_A.txt.gz ta.gz; } >"$o/gzip"
	awk '{ printf "%g, %d\n", NR / 4, NR % 3 }' $D/import-tu_graph_indicator.txt >attr
	{ for f in A graph_indicator graph_labels; do sec t_$f.txt $D/import-tu_$f.txt; done
	  sec t_node_attributes.txt attr; } >"$o/attributes"
	# MUTAG's first three graphs
	head -n 3 "$M/mutag/MUTAG_graph_labels.txt" >gl
	awk '$1 <= 3' "$M/mutag/MUTAG_graph_indicator.txt" >gi
	n=$(wc -l <gi)
	awk -F, -v n="$n" '$1 + 0 <= n && $2 + 0 <= n' "$M/mutag/MUTAG_A.txt" >ga
	{ sec t_graph_labels.txt gl; sec t_graph_indicator.txt gi; sec t_A.txt ga; } >"$o/mutag-3"
}

movielens() {
	mkdir -p "$c/movielens"
	o=$c/movielens
	{ for f in u.data u.genre u.info u.item u.occupation u.user; do
		sec $f $D/import-ml100k/$f; done; } >"$o/ml-100k"
	{ for f in movies.dat ratings.dat users.dat; do sec $f $D/import-ml1m/$f; done; } >"$o/ml-1m"
	{ sec movies.dat $D/import-ml1m/movies.dat; sec users.dat $D/import-ml1m/users.dat
	  cut -d: -f1-5 $D/import-ml1m/ratings.dat >tr; sec ratings.triples.dat tr; } >"$o/ml-1m-triples"
	gzip -n -c $D/import-ml100k/u.data >ud.gz
	{ for f in u.genre u.item u.occupation u.user; do sec $f $D/import-ml100k/$f; done
	  sec u.data.gz ud.gz; } >"$o/ml-100k-gzip"
}

edgelist() {
	mkdir -p "$c/edgelist"
	o=$c/edgelist
	cp $D/mask-small.ok.txt "$o/plain"
	cp $D/mask-labels.ok.txt "$o/labelled"
	printf '# a comment\n0,1\n1,2\n\n2,0\n' >"$o/commas"
	printf "0 1 {'weight': 4}\n1 2 {}\n2 2 {}\n1 0 {'weight': 1}\n" >"$o/networkx"
	gzip -n -c $D/mask-small.ok.txt >"$o/gzip"
}

for t in "$@"; do
	"$t"
done
