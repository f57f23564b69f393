# edgelist.test.sh - plain edge lists as people have them, read by the graph
# filters (issue 29; gnnstream(5), "Plain edge lists").  Sourced by run.sh
# with lib.sh.  What a filter reads from an edge list, it passes on as the
# simple graph it computed on, so the next stage accepts it; networkx's
# default edge list, with its attribute dict column, is read.
# tests/cli/compose.test.sh checks the same on generated cases.
T="$TMPD/edgelist"
mkdir -p "$T"
F="centrality mask-edges nodefeat"

# "$(graph_is NODES EDGES) FILE", a command for check: the first graph record
# of the text stream FILE has those counts, and its edges are simple (each
# pair once, in either orientation, no self-loop)
cat >"$T/graph.awk" <<'EOF'
	/^@/ { if (g) exit; g = /^@graph/; if (g) h = $0; next }
	g && !bad { a = $1 + 0; b = $2 + 0; if (a > b) { t = a; a = b; b = t }
	    if (a == b || (a, b) in seen) { print "not simple: " $0; bad = 1 }
	    seen[a, b] = 1 }
	END { if (!bad && h !~ (" nodes=" N " edges=" E " ")) { print "header: " h; bad = 1 }
	      exit bad }
EOF
graph_is() { echo "awk -v N=$1 -v E=$2 -f $T/graph.awk"; }

# opts PROG: options that keep every edge (mask-edges removes none)
opts() { [ "$1" != mask-edges ] || echo "-f 0 -p 0 -n 0"; }

# ---- both directions listed (SNAP files, networkx's directed output) ----
printf '0 1\n1 0\n1 2\n2 1\n2 0\n' >"$T/both.el"
expect 0 "centrality $T/both.el | nodefeat >/dev/null" "the issue's example"
expect 0 "nodefeat $T/both.el | centrality >/dev/null"
# ---- self-loops, repeats, a node named only by its self-loop ----
printf '0 0\n0 1\n1 0\n0 1\n3 3\n' >"$T/loops.el"

# read_el NAME NODES EDGES: each filter writes NAME.el's simple graph, and
# each other filter accepts what it wrote
read_el() {
	for a in $F; do
		expect 0 "$a -q -t $(opts $a) $T/$1.el >$T/$1.$a.txt"
		check "$(graph_is $2 $3) $T/$1.$a.txt" "$a $1.el: the graph record is the simple graph"
		for b in $F; do
			# a masked graph is not masked twice (compose.test.sh tests that)
			[ "$a.$b" != mask-edges.mask-edges ] || continue
			expect 0 "$a -q $T/$1.el >$T/$1.$a.gs && $b -q $T/$1.$a.gs >/dev/null"
		done
	done
}
read_el both 3 3
read_el loops 4 1

# ---- a larger list given twice, once reversed ----
dcbm-gen -q --count 1 --nodes 300 -s 1 -t |
	awk '/^@/ { g = /^@graph/; next } g { print $1, $2 }' >"$T/ba.el"
E=$(wc -l <"$T/ba.el")
N=$(awk '{ if ($1 > n) n = $1; if ($2 > n) n = $2 } END { print n + 1 }' "$T/ba.el")
awk '{ print $2 "\t" $1 }' "$T/ba.el" >"$T/ba.rev.el"
expect 0 "cat $T/ba.el $T/ba.el | centrality -t >$T/ba2.txt"
check "grep -q 'merged $E duplicate' $LIB_ERR" "cat ba.el ba.el: the warning counts the merged edges"
check "$(graph_is $N $E) $T/ba2.txt" "cat ba.el ba.el | centrality -t: edges=$E, the simplified count"
expect 0 "cat $T/ba.el $T/ba.rev.el | nodefeat -q -t >$T/barev.txt"
check "$(graph_is $N $E) $T/barev.txt" "ba.el and its reverse | nodefeat -t: edges=$E"

# ---- networkx's write_edgelist: an attribute dict per line ----
printf "0 1 {'weight': 4}\n1 2 {'weight': 1.5, 'color': 'red'}\n2 0 {}\n" >"$T/nx.el"
printf '0 1 {}\r\n1 2 {}\r\n2 3 {}\r\n' >"$T/nx-empty.el"
for a in $F; do
	expect 0 "$a -q -t $T/nx.el >$T/nx.$a.txt" "$a reads networkx's dict column"
	expect 0 "$a -q -t <$T/nx-empty.el >$T/nx-empty.$a.txt" "$a reads networkx's {} column"
done
check "$(graph_is 3 3) $T/nx.centrality.txt" "nx dict: the graph of its u v columns"
check "$(graph_is 4 3) $T/nx-empty.nodefeat.txt" "nx {}: the graph of its u v columns"
expect 0 "centrality -q $T/nx.el | mask-edges -q | nodefeat -q >/dev/null"
expect 0 "graph-import -q -f edgelist -t $T/nx.el >/dev/null" "graph-import reads the dict column too"
# ---- named nodes: numbered in order of first appearance, their names in
# a names record after the graph, and a name column in TSV ----
printf '\357\273\277a b\nb c\n' >"$T/names.el"
printf "alice bob {'weight': 1}\n7 alice {}\n" >"$T/nx-names.el"
expect 0 "centrality -q -t <$T/names.el >$T/names.cent.txt"
check "$(graph_is 3 2) $T/names.cent.txt" "names: 3 nodes, 2 edges"
check "[ \"\$(sed -n '/^@names id=0 count=3 bytes=6 /,/^@/p' $T/names.cent.txt | sed '1d;\$d' | tr '\n' ,)\" = a,b,c, ]" \
	"names: a, b, c in order of first appearance (the byte-order mark is not a's)"
expect 0 "nodefeat -q --tsv $T/nx-names.el >$T/nx-names.tsv"
check "[ \"\$(cut -f1,2 $T/nx-names.tsv | tr '\t\n' ':,')\" = 'node:name,# graph 0,0:alice,1:bob,2:7,' ]" \
	"names: TSV has a name column; an integer id among names is a name"
expect 0 "nodefeat -q $T/names.el | mask-edges -q -s 1 -p 1 -n 1 | centrality -q | nodefeat -q -t | grep -q '^@names id=0 count=3'" \
	"names: the names record passes through a pipeline"
# integer ids that never occur: kept as isolated nodes, with a warning
printf '1 2\n2 3\n' >"$T/one-based.el"
expect_err 0 "nodefeat -t $T/one-based.el >/dev/null" "1 of the node ids 0..3 have no edge"
expect 0 "nodefeat -q -t $T/one-based.el >/dev/null"
check "[ ! -s $LIB_ERR ]" "-q: no warning of isolated ids"

# ---- a graph without edges passed on in binary (found by compose.test.sh):
# the segment's checksum still matches ----
printf '0 0\n' >"$T/loop.el"
printf '##gnnstream 1\n@graph id=0 nodes=1 edges=0\n@end\n' >"$T/noedge.txt"
expect 0 "mask-edges -q -l 0 $T/loop.el | centrality -q -l 0 | nodefeat -q -t >/dev/null"
expect 0 "nodefeat -l 0 $T/noedge.txt | nodefeat -l 0 | nodefeat -t >/dev/null"
