# dcbm-gen.test.sh - command-line table for dcbm-gen (sourced by run.sh
# with lib.sh: expect, expect_err, check, same).
T="$TMPD/dcbm"
mkdir -p "$T"

# graph ID [FILE]: the records of graph ID (graph + cluster tensor) of a
# text stream, without the pg ids (they hash the command line).
cat >"$T/graph.awk" <<'EOF'
	/^@/ { keep = ($0 ~ "^@(graph|tensor) id=" ID " ") }
	keep { sub(/ pg=[^ ]*/, ""); print }
EOF
graph() { awk -v ID="$1" -f "$T/graph.awk" "$2"; }

# strip FILE: a text stream's records without the segment header, the pg
# record, pg ids and the trailer.
strip() { sed 's/ pg=[^ ]*//; /^##gnnstream/d; /^@pg/d; /^@end/d' "$1"; }

# check.awk: every graph of a text stream is canonical and consistent:
# u < v, sorted, in range, edges= lines, mean_degree = 2m/n, and a cluster
# tensor of nodes rows with values in 0..K-1 follows it.
cat >"$T/check.awk" <<'EOF'
	function bad(s) { print "dcbm_check: graph " id ": " s; err = 1; exit 1 }
	function attr(k,   i, kv) {
		for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) { split($i, kv, "="); return kv[2] }
		return ""
	}
	function close_graph() {
		if (sec == "g" && got != m) bad(got " edge lines, header says " m)
		if (sec == "t" && rows != n) bad(rows " cluster rows, want " n)
	}
	/^@graph/ {
		close_graph(); if (sec == "g") bad("no cluster tensor")
		sec = "g"; graphs++; got = 0; pu = -1; pv = -1
		id = attr("id"); n = attr("nodes") + 0; m = attr("edges") + 0; K = attr("K") + 0
		md = attr("mean_degree") + 0
		if (attr("gamma") == "" || attr("p_div_q") == "" || attr("p_in") == "") bad("parameters missing")
		if (n > 0 && (md - 2 * m / n > 1e-4 * (md + 1) || 2 * m / n - md > 1e-4 * (md + 1))) bad("mean_degree " md " != 2m/n")
		next
	}
	/^@tensor/ {
		close_graph()
		if (attr("id") != id || attr("name") != "cluster" || attr("cols") != "1") bad("tensor " $0)
		sec = "t"; rows = 0; next
	}
	/^@/ { close_graph(); sec = ""; next }
	sec == "g" {
		u = $1 + 0; v = $2 + 0; got++
		if (!(u < v) || v >= n || u < 0) bad("edge " u " " v)
		if (u < pu || (u == pu && v <= pv)) bad("edge " u " " v " after " pu " " pv)
		pu = u; pv = v
	}
	sec == "t" { rows++; if ($1 < 0 || $1 >= K) bad("cluster " $1 " of K " K) }
	END { if (!err) close_graph(); if (!err && graphs != G) { print "dcbm_check: " graphs " graphs, want " G; exit 1 } }
EOF

# ---- usage: -h, --version, misuse (exit 2, one line on stderr) ----
expect 0 "dcbm-gen -h"
check "dcbm-gen -h | grep -q '^usage: dcbm-gen '" "-h prints usage on stdout"
check "dcbm-gen -h | grep -q 'count.*\[1024\]' && dcbm-gen -h | grep -q 'gamma.*\[2\.\.10\]'" "-h shows the defaults"
check "dcbm-gen --count 7 -k 0.5..1 -h | grep -q 'count.*\[7\]' && dcbm-gen -k 0.5..1 -h | grep -q 'density.*\[0.5\.\.1\]'" "-h shows live values"
expect 0 "dcbm-gen --version"
expect_err 2 "dcbm-gen -k 0" "-k"
expect_err 2 "dcbm-gen -k 0..1" "above 0"
expect 2 "dcbm-gen -k abc"
expect 2 "dcbm-gen -k 1..x"
expect 2 "dcbm-gen -k ''"
expect_err 2 "dcbm-gen --nodes 0" "--nodes"
expect_err 2 "dcbm-gen --nodes 10..5" "empty"
expect 2 "dcbm-gen --nodes 3000000000"
expect 2 "dcbm-gen --nodes 1.5"
expect_err 2 "dcbm-gen --clusters 0" "--clusters"
expect_err 2 "dcbm-gen --gamma 1" "--gamma"
expect 2 "dcbm-gen --gamma 2..nan"
expect 2 "dcbm-gen --gamma inf"
expect_err 2 "dcbm-gen --p-div-q 0.5" "--p-div-q"
expect 2 "dcbm-gen --count -1"
expect 2 "dcbm-gen --deg-per-k 0"
expect 2 "dcbm-gen --mean-degree 0"
expect_err 2 "dcbm-gen -k 1 --mean-degree 5" "give one"
expect 2 "dcbm-gen --first-id -3"
expect 2 "dcbm-gen -l 10"
expect 2 "dcbm-gen -j 0"
expect 2 "dcbm-gen -s -1"
expect_err 2 "dcbm-gen --bogus" "unknown option '--bogus'"
expect_err 2 "dcbm-gen -x" "unknown option '-x'"
expect_err 2 "dcbm-gen --count" "needs a value"
expect_err 2 "dcbm-gen somefile" "operand"
check "! dcbm-gen -k 0 >$T/misuse.out 2>/dev/null; test ! -s $T/misuse.out" "misuse writes nothing on stdout"

# ---- output: well-formed graphs with their parameters and clusters ----
expect 0 "dcbm-gen -q -t --count 12 -s 3 >$T/a.txt"
check "awk -v G=12 -f $T/check.awk $T/a.txt" "12 canonical graphs with cluster tensors"
check "test \"\$(grep -c '^@graph' $T/a.txt)\" = 12 && test \"\$(grep -c '^@tensor' $T/a.txt)\" = 12" "graph + tensor per graph"
check "grep '^@graph' $T/a.txt | awk '{for (i = 2; i <= NF; i++) if (\$i ~ /^nodes=/) { split(\$i, kv, \"=\"); if (kv[2] < 100 || kv[2] > 2000) exit 1 }}'" "nodes within the default 100..2000"
check "grep '^@graph' $T/a.txt | awk '{for (i = 2; i <= NF; i++) if (\$i ~ /^(K|gamma|p_div_q|k)=/) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] + 0 } if (v[\"K\"] < 2 || v[\"K\"] > 10 || v[\"gamma\"] < 2 || v[\"gamma\"] > 10 || v[\"p_div_q\"] < 3 || v[\"p_div_q\"] > 6 || v[\"k\"] < 0.1 || v[\"k\"] > 2) exit 1 }'" "parameters within the paper's ranges"
check "grep -q '^@graph id=11 ' $T/a.txt && ! grep -q '^@graph id=12 ' $T/a.txt" "ids 0..count-1"
expect 0 "dcbm-gen -q -t --count 3 --first-id 100 -s 3 >$T/f.txt"
check "grep '^@graph' $T/f.txt | cut -d' ' -f2 | tr '\n' ' ' | grep -qx 'id=100 id=101 id=102 '" "--first-id numbers the graphs"
# fixed parameters are reported back exactly
expect 0 "dcbm-gen -q -t --count 2 --nodes 300 --clusters 4 --p-div-q 5 -k 1.5 --gamma 3 >$T/fix.txt"
check "test \"\$(grep -c '^@graph id=[01] nodes=300 .* K=4 p_div_q=5 k=1.5 gamma=3 mean_degree_target=15 ' $T/fix.txt)\" = 2" "single-value ranges are used as given"
# the realised mean degree of a near-uniform model is near the target
expect 0 "dcbm-gen -q -t --count 1 --nodes 4000 --gamma 10 --mean-degree 12 >$T/md.txt"
check "grep '^@graph' $T/md.txt | tr ' ' '\n' | awk -F= '\$1 == \"mean_degree\" { exit !(\$2 > 11.5 && \$2 < 12.5) }'" "mean degree 12 +- 0.5 (sd ~0.06)"
expect 0 "dcbm-gen -q --count 0 -t >$T/zero.txt"
check "test \"\$(grep -c '^@graph' $T/zero.txt)\" = 0 && grep -q '^@end records=1' $T/zero.txt" "--count 0: an empty stream"
check "dcbm-gen -q --count 3 --nodes 50 | gzip -t" "default output is gzip"
check "dcbm-gen -q -l 0 --count 1 --nodes 50 | head -c 4 | od -c | grep -q 'G   N   S'" "-l 0 writes the plain binary form"
check "dcbm-gen -q --count 4 --nodes 60 -s 2 | mask-edges -q -t | grep -c '^@pairs' | grep -qx 4" "mask-edges reads the output"
# many clusters (one node each) and heavy tails must stay linear, not hang
check "timeout 300 dcbm-gen -q -l 0 --count 1 --nodes 200000 --clusters 200000 --gamma 2 -k 1 -t | awk -v G=1 -f $T/check.awk" "200000 clusters of 200000 nodes"

# ---- determinism ----
# graph 5 is the same whatever --count (its stream is (seed, 5))
dcbm-gen -q -t -s 11 --count 10 >"$T/c10.txt"
dcbm-gen -q -t -s 11 --count 100 --nodes 100..2000 >"$T/c100.txt"
graph 5 "$T/c10.txt" >"$T/g5a.txt"
graph 5 "$T/c100.txt" >"$T/g5b.txt"
check "test \"\$(grep -c '^@' $T/g5a.txt)\" = 2 && test \$(wc -l <$T/g5a.txt) -gt 100" "graph 5 extracted"
same "$T/g5a.txt" "$T/g5b.txt" "graph 5 of --count 10 vs --count 100"
# a run split with --first-id joins back into the whole
dcbm-gen -q -t -s 11 --count 5 >"$T/h1.txt"
dcbm-gen -q -t -s 11 --count 5 --first-id 5 >"$T/h2.txt"
{ strip "$T/h1.txt"; strip "$T/h2.txt"; } >"$T/h12.txt"
strip "$T/c10.txt" >"$T/c10s.txt"
same "$T/h12.txt" "$T/c10s.txt" "--first-id 5 continues --count 5"
# byte-identical records for any thread count, many graphs and one big one
dcbm-gen -q -t -s 4 -j 1 --count 40 --nodes 50..3000 >"$T/j1.txt"
dcbm-gen -q -t -s 4 -j 2 --count 40 --nodes 50..3000 >"$T/j2.txt"
strip "$T/j1.txt" >"$T/j1s.txt"
strip "$T/j2.txt" >"$T/j2s.txt"
same "$T/j1s.txt" "$T/j2s.txt" "--threads 1 vs --threads 2, 40 graphs"
dcbm-gen -q -t -s 4 -j 1 --count 1 --nodes 100000 -k 2 --gamma 3 >"$T/b1.txt"
dcbm-gen -q -t -s 4 -j 2 --count 1 --nodes 100000 -k 2 --gamma 3 >"$T/b2.txt"
strip "$T/b1.txt" >"$T/b1s.txt"
strip "$T/b2.txt" >"$T/b2s.txt"
check "test \$(wc -l <$T/b1s.txt) -gt 800000" "big graph has its ~10^6 edges"
same "$T/b1s.txt" "$T/b2s.txt" "--threads 1 vs --threads 2, one 10^5-node graph"
rm -f "$T/b1.txt" "$T/b2.txt" "$T/b1s.txt" "$T/b2s.txt"
dcbm-gen -q -t -s 12 --count 10 >"$T/s12.txt"
strip "$T/s12.txt" >"$T/s12s.txt"
check "! cmp -s $T/c10s.txt $T/s12s.txt" "seeds 11 and 12 differ"

# ---- YAML configuration ----
cat >"$T/good.yaml" <<'EOF'
# a sweep: ranges as LO..HI or [LO, HI]
count: 3
nodes: 30..40
clusters: [2, 3]
p_div_q: 4
gamma: [2.5, 3]
k: 0.5
EOF
expect 0 "dcbm-gen -q -t --config $T/good.yaml >$T/y.txt"
check "awk -v G=3 -f $T/check.awk $T/y.txt" "config: 3 graphs"
check "grep '^@graph' $T/y.txt | tr ' ' '\n' | awk -F= '\$1 == \"nodes\" && (\$2 < 30 || \$2 > 40) { exit 1 } \$1 == \"K\" && (\$2 < 2 || \$2 > 3) { exit 1 } \$1 == \"p_div_q\" && \$2 != 4 { exit 1 }'" "config ranges are used"
expect 0 "dcbm-gen -q -t --config $T/good.yaml --count 2 --nodes 50 >$T/y2.txt"
check "test \"\$(grep -c '^@graph id=[01] nodes=50 ' $T/y2.txt)\" = 2" "options override the file"
printf 'count: 2\nbogus_key: 3\n' >"$T/bad.yaml"
expect_err 2 "dcbm-gen --config $T/bad.yaml" "bogus_key"
printf 'gamma: 0.5..3\n' >"$T/badrange.yaml"
expect_err 2 "dcbm-gen --config $T/badrange.yaml" "gamma"
printf 'mean_degree: 8\ncount: 1\nnodes: 3000\ngamma: 10\n' >"$T/md.yaml"
expect 0 "dcbm-gen -q -t --config $T/md.yaml >$T/ymd.txt"
check "grep -q 'mean_degree_target=8 ' $T/ymd.txt" "mean_degree from the file"
expect_err 2 "dcbm-gen --config $T/missing.yaml" "missing.yaml"

# ---- errors: write failures, -o never leaves a partial file ----
expect_err 1 "dcbm-gen -q --count 20 >/dev/full" "write error"
expect 0 "dcbm-gen -q --count 3 --nodes 40 -o $T/o.gs"
check "gzip -t <$T/o.gs && ! ls $T/o.gs.tmp* >/dev/null 2>&1" "-o writes the file, no temporary left"
cp "$T/o.gs" "$T/keep.gs"
# A file-size limit makes the write fail (EFBIG) half-way.  expect wants the
# command to start with the program, so this one is checked by hand.
efbig() {
	sh -c "trap '' XFSZ; ulimit -f 64; exec dcbm-gen -q --count 50 -l 0 -o $1" 2>"$T/efbig.err"
	test $? -eq 1 && test "$(wc -l <"$T/efbig.err")" -eq 1 &&
		grep -q "^dcbm-gen: $1: write error" "$T/efbig.err"
}
efbig "$T/o.gs"
check "test $? -eq 0" "file too large: exit 1, one message"
same "$T/o.gs" "$T/keep.gs" "failed run leaves the old file untouched"
check "! ls $T/o.gs.tmp* >/dev/null 2>&1" "failed run leaves no temporary file"
efbig "$T/new.gs"
check "test $? -eq 0 && test ! -e $T/new.gs && ! ls $T/new.gs.tmp* >/dev/null 2>&1" "failed run creates no file"
expect_err 1 "dcbm-gen -q --count 1 -o $T/nodir/x.gs" "nodir"

# ---- progress ----
expect 0 "dcbm-gen --count 5 --nodes 30 -o $T/p.gs"
check "dcbm-gen --count 5 --nodes 30 -o $T/p.gs 2>&1 | wc -c | grep -qx 0" "no progress when stderr is not a terminal"
check "dcbm-gen --progress --count 5 --nodes 30 -o $T/p.gs 2>&1 | grep -q '^dcbm-gen: 5/5 graphs'" "--progress forces it"
check "dcbm-gen -q --progress --count 5 --nodes 30 -o $T/p.gs 2>&1 | wc -c | grep -qx 0" "-q silences it"

# -o to a device or a FIFO writes to it and never renames a file over it
# (as root, a rename would replace /dev/null with a regular file)
expect 0 "dcbm-gen -q --count 1 --nodes 10 -o /dev/null"
check "[ -c /dev/null ]" "-o /dev/null leaves the device in place"
mkfifo "$TMPD/fifo"
timeout 120 cat "$TMPD/fifo" >"$TMPD/fifo.out" &
expect 0 "dcbm-gen -q --count 1 --nodes 10 -t -o $TMPD/fifo"
wait $!	# the reader has read it all (or given up after 2 minutes)
check "[ -p $TMPD/fifo ] && grep -q '^@graph' $TMPD/fifo.out" "-o FIFO writes through the pipe"

# more clusters than nodes: K is cut to n, and cluster ids stay below n
expect 0 "dcbm-gen -q -s 1 --count 3 --nodes 5 --clusters 40 -t -o $T/kn.txt"
check "[ \$(grep -c '^@graph .* K=5 ' $T/kn.txt) -eq 3 ]" "K = 5 for 5-node graphs asked for 40 clusters"
expect 0 "dcbm-gen -q -s 1 --count 3 --nodes 5 --clusters 40 | centrality -q | gcn-train -q --hidden 8 --epochs 1 --batch 2 --validation 1 -o $T/kn.gs"
