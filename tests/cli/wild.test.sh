# wild.test.sh - input as it comes from the wild (issue 37, section 6):
# byte-order marks, graphs that share an id, graphs larger than memory,
# progress on long work.  Sourced by run.sh with lib.sh (expect,
# expect_err, check, same).
T="$TMPD/wild"
mkdir -p "$T"
BOM=$(printf '\357\273\277')

# ---- a UTF-8 byte-order mark is not data ----
printf '%s0 1\n1 2\n2 0\n' "$BOM" >"$T/bom.el"
printf '0 1\n1 2\n2 0\n' >"$T/plain.el"
expect 0 "centrality --tsv $T/plain.el >$T/plain.tsv"
expect 0 "centrality --tsv <$T/bom.el >$T/bom.tsv" "an edge list that starts with a BOM (the issue's example)"
same "$T/plain.tsv" "$T/bom.tsv" "centrality: a BOM changes nothing"
expect 0 "nodefeat --tsv $T/bom.el >$T/bomf.tsv"
expect 0 "nodefeat --tsv $T/plain.el >$T/plainf.tsv"
same "$T/plainf.tsv" "$T/bomf.tsv" "nodefeat: a BOM changes nothing"
# cat of two such files: the second mark starts a line
printf '%s3 4\n' "$BOM" >"$T/bom2.el"
expect 0 "cat $T/bom.el $T/bom2.el | nodefeat --tsv >$T/cat.tsv"
check "[ \$(grep -c '^[0-9]' $T/cat.tsv) -eq 5 ]" "cat of two edge lists with a BOM each: 5 nodes"
# a text stream saved by an editor, and after another one (cat)
dcbm-gen -q --count 1 --nodes 30 -t >"$T/g.txt"
{ printf '%s' "$BOM"; cat "$T/g.txt"; } >"$T/bomg.txt"
expect 0 "centrality -q --tsv $T/g.txt >$T/g.tsv"
expect 0 "centrality -q --tsv $T/bomg.txt >$T/bomg.tsv" "a text stream that starts with a BOM"
same "$T/g.tsv" "$T/bomg.tsv" "a text stream: a BOM changes nothing"
expect 0 "cat $T/g.txt $T/bomg.txt | centrality -q --tsv >$T/two.tsv"
check "[ \$(grep -c '^# graph' $T/two.tsv) -eq 2 ]" "a text stream with a BOM after another stream"
# graph-import's readers
expect 0 "graph-import -f edgelist -t $T/bom.el >$T/imp.txt"
check "grep -q '^@graph id=0 nodes=3 edges=3 ' $T/imp.txt" "graph-import: an edge list with a BOM"
printf '%s1\t0\t0\ta\n2\t1\t0\tb\n' "$BOM" >"$T/bom.content"
printf '%s1\t2\n' "$BOM" >"$T/bom.cites"
expect 0 "graph-import -f linqs -q -t $T/bom.content $T/bom.cites >$T/linqs.txt" "LINQS files with a BOM"
check "grep -q '^@graph id=0 nodes=2 edges=1 ' $T/linqs.txt" "graph-import: LINQS with a BOM"

# ---- graphs that share an id: gcn-train numbers them by position ----
# 12 labelled graphs (ids 0..11), and the same stream with every id 0, as
# cat of edge lists or of streams numbered from 0 gives (a bare @end: the
# ids changed, so the checksum did)
dcbm-gen -q -s 3 --count 12 --nodes 80..120 | centrality -q -t >"$T/lab.txt"
awk '/^@(graph|tensor|pairs|label) / { sub(/ id=[0-9]+/, " id=0") } /^@end/ { $0 = "@end" } 1' \
	"$T/lab.txt" >"$T/dup.txt"
# (in fp32: two runs are compared, and auto's choice is a timing)
printf 'model:\n  hidden: 16\n  rank_hidden: 16\n  attention_hidden: 16\ntrain:\n  batch_graphs: 4\n  validation_graphs: 4\n  precision: fp32\n' >"$T/small.yaml"
expect 0 "gcn-train -q -j 2 --config $T/small.yaml --epochs 2 -t -o $T/m-ids.txt $T/lab.txt"
expect_err 0 "gcn-train -j 2 --config $T/small.yaml --epochs 2 -t -o $T/m-dup.txt $T/dup.txt" \
	"gcn-train: 12 graphs carry 1 distinct ids (cat of edge lists or of streams numbered from 0?), and masks are drawn by graph id: the graphs are numbered 0..11 in input order instead"
check "[ \$(grep -c 'distinct ids' $LIB_ERR) -eq 1 ]" "the renumbering is said once"
# the model trained on them is the model of the graphs numbered 0..11 (but
# for the pg ids, which name other commands)
model_only() { sed -n '/^@model/,$p' "$1" | sed 's/ pg=[0-9a-f]*//; /^@end/d'; }
model_only "$T/m-ids.txt" >"$T/m-ids.model"
model_only "$T/m-dup.txt" >"$T/m-dup.model"
same "$T/m-ids.model" "$T/m-dup.model" "graphs that shared id 0 draw the masks of graphs 0..11"
expect 0 "gcn-train -j 2 --config $T/small.yaml --epochs 2 -t -o $T/m-ids2.txt $T/lab.txt"
check "! grep -q 'distinct ids' $LIB_ERR" "distinct ids: nothing said"

# ---- memory: what cannot fit is refused in one line, before the work ----
# (GNNPIPE_MEMORY stands in for the machine's memory: mem.h)
printf '999999 0\n' >"$T/wide.el"		# 10^6 nodes, one edge
for p in nodefeat centrality; do
	GNNPIPE_MEMORY=24M; export GNNPIPE_MEMORY
	expect_err 1 "$p -o $T/wide.$p.gs $T/wide.el" "$p: $T/wide.el: line 1: graph 0 (1000000 nodes, 1 edges) needs about "
	check "grep -q 'MiB, this process can have 24 MiB (GNNPIPE_MEMORY); GNNPIPE_MEMORY=off tries anyway\$' $LIB_ERR" \
		"$p: what it needs, what it can have, and the way out: $(cat "$LIB_ERR")"
	check "[ ! -e $T/wide.$p.gs ]" "$p: no output after the refusal"
	GNNPIPE_MEMORY=off
	expect 0 "$p -o $T/wide.$p.gs $T/wide.el" "$p: GNNPIPE_MEMORY=off: no check"
	unset GNNPIPE_MEMORY
done
GNNPIPE_MEMORY=lots; export GNNPIPE_MEMORY
expect_err 2 "nodefeat $T/wide.el" "nodefeat: GNNPIPE_MEMORY=lots: expected off or a size"
unset GNNPIPE_MEMORY
# centrality checks again once the graph is built: a 20,000-node star past
# --exact-max takes 20 MB of accumulators for its sampled searches, which
# its size alone (2 MB of columns) does not show
awk 'BEGIN { for (i = 1; i < 20000; i++) print 0, i }' >"$T/star.el"
GNNPIPE_MEMORY=8M; export GNNPIPE_MEMORY
expect_err 1 "centrality --exact-max 100 $T/star.el" "centrality: $T/star.el: line 19999: graph 0 (20000 nodes, 19999 edges) needs about "
unset GNNPIPE_MEMORY
# the estimates are what the programs take (peak resident set within 25%
# of the estimate, and the programs' own ~30 MB of code and libraries);
# not under ASan (make test-asan), whose shadow memory and quarantine
# double the resident set
if sanitized; then
	echo "wild.test.sh: sanitized build, the estimates are not checked against the peak RSS"
elif [ -x /usr/bin/time ]; then
	# (100M: past centrality's check before the graph is built, which
	# counts the columns only, not its check after)
	for p in nodefeat centrality; do
		GNNPIPE_MEMORY=$([ $p = nodefeat ] && echo 1M || echo 100M) "$p" "$T/wide.el" 2>"$T/est.$p" >/dev/null
		est=$(sed -n 's/.* needs about \([0-9]*\) MiB.*/\1/p' "$T/est.$p")
		/usr/bin/time -f '%M' -o "$T/rss.$p" "$p" -q "$T/wide.el" >/dev/null
		rss=$(tail -n 1 "$T/rss.$p")
		check "awk -v e='$est' -v r='$rss' 'BEGIN { r /= 1024; exit !(e > 0 && r >= 0.75 * e && r <= 1.25 * e + 30) }'" \
			"$p: 10^6 nodes: peak RSS ${rss} KB against the estimate ${est} MiB"
	done
else
	echo "wild.test.sh: no /usr/bin/time, the estimates are not checked against the peak RSS"
fi

# ---- progress on every long phase: reading, the eigensolvers, Lanczos ----
E="GNNPIPE_PROGRESS_EVERY=0"
# reading: a 2 MB edge list moves the line before its one graph is done
awk 'BEGIN { for (i = 0; i < 200000; i++) print i, (i * 7919 + 1) % 200000 }' >"$T/long.el"
expect 0 "$E nodefeat -q --progress $T/long.el >/dev/null 2>$T/read.err; [ ! -s $T/read.err ]" "-q: no progress"
expect 0 "$E nodefeat --progress $T/long.el >/dev/null 2>$T/read.err"
check "grep -q '^nodefeat: $T/long.el: [0-9,]*/[0-9,]* kB ([1-9]\{0,1\}[0-9]%), .*/s, .* left\$' $T/read.err &&
	grep -q '^nodefeat: $T/long.el: [0-9,]*/[0-9,]* kB (100%) in .*; 1 graph\$' $T/read.err" \
	"reading: kB of the file read, the time left, then the graph done: $(head -n 2 "$T/read.err")"
# a 3000-node graph past --exact-max: the Lanczos restarts with the time
# left, the components through the eigensolvers
dcbm-gen -q -s 2 --count 1 --nodes 3000 --mean-degree 6 -o "$T/big.gs"
expect 0 "$E centrality --progress --exact-max 100 --samples 20 $T/big.gs >/dev/null 2>$T/lz.err"
check "grep -q '^centrality: graph 0: Lanczos: [0-9]*/[0-9]* restarts ([0-9]*%), .*, .* left\$' $T/lz.err &&
	grep -q '^centrality: graph 0: Lanczos: [0-9]* restarts (100%) in ' $T/lz.err || grep -q '^centrality: graph 0: Lanczos: \([0-9]*\)/\1 restarts (100%) in ' $T/lz.err" \
	"Lanczos: restarts done of those predicted, the time left: $(grep -m 3 Lanczos "$T/lz.err")"
check "grep -q '^centrality: graph 0: eigensolvers: [0-9,]*/[0-9,]* components (100%) in ' $T/lz.err" \
	"the components through the eigensolvers"
# the results are the same with and without the progress hooks
expect 0 "centrality -q --exact-max 100 --samples 20 -l 0 $T/big.gs >$T/noprog.gs"
expect 0 "$E centrality --progress --exact-max 100 --samples 20 -l 0 $T/big.gs >$T/prog.gs 2>/dev/null"
same "$T/noprog.gs" "$T/prog.gs" "progress changes no result (--progress is not in the pg record)"
# nodefeat: the triangle count and core peeling, the return probabilities
expect 0 "$E nodefeat --progress $T/big.gs >$T/nf-prog.gs 2>$T/nf.err"
check "grep -q '^nodefeat: graph 0: triangles and cores: [0-9,]*/6,000 node passes ([0-9]*%), .* left\$' $T/nf.err &&
	grep -q '^nodefeat: graph 0: triangles and cores: 6,000/6,000 node passes (100%) in ' $T/nf.err" \
	"nodefeat: the nodes through the triangle count and the peeling: $(grep -m 1 triangles "$T/nf.err")"
expect 0 "$E nodefeat --progress --set rwse --exact-max 0 --rw-error 0.2 $T/big.gs >/dev/null 2>$T/rw.err"
check "grep -q '^nodefeat: graph 0: rwse: [0-9,]*/[0-9,]* nodes ([0-9]*%), .* left\$' $T/rw.err &&
	grep -q '^nodefeat: graph 0: rwse: \\([0-9,]*\\)/\\1 nodes (100%) in ' $T/rw.err" \
	"nodefeat --set rwse: the nodes whose walks are done: $(grep -m 1 rwse: "$T/rw.err")"
expect 0 "nodefeat -l 0 $T/big.gs >$T/nf-q.gs"
expect 0 "$E nodefeat --progress -l 0 $T/big.gs >$T/nf-prog0.gs 2>/dev/null"
same "$T/nf-q.gs" "$T/nf-prog0.gs" "nodefeat: progress changes no result"
