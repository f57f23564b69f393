# graph-gen.test.sh - command-line table for graph-gen and the mixed corpus
# of pipelines/corpus.mk (sourced by run.sh with lib.sh: expect,
# expect_err, check, same).
T="$TMPD/ggen"
mkdir -p "$T"

# strip FILE: a text stream's records without the segment header, the pg
# record, pg ids and the trailer.
strip() { sed 's/ pg=[^ ]*//; /^##gnnstream/d; /^@pg/d; /^@end/d' "$1"; }

# check.awk: every graph of a text stream is canonical and consistent:
# u < v, sorted, in range, as many edge lines as edges=, mean_degree =
# 2m/n, each family's attributes, its edge count where the family fixes
# it (ba, hk: m (n - m); ws: n k / 2; rmat: drawn = m + loops +
# duplicates), and a cluster tensor of nodes rows with values 0..K-1
# exactly after the ws and rgg graphs.
cat >"$T/check.awk" <<'EOF'
	function bad(s) { print "graph_check: graph " id ": " s; err = 1; exit 1 }
	function attr(k,   i, kv) {
		for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) { split($i, kv, "="); return kv[2] }
		return ""
	}
	function close_graph() {
		if (sec == "g" && got != m) bad(got " edge lines, header says " m)
		if (sec == "t" && rows != n) bad(rows " cluster rows, want " n)
	}
	/^@graph/ {
		close_graph()
		if (want_cl) bad(fam " graph without its cluster tensor")
		sec = "g"; graphs++; got = 0; pu = -1; pv = -1
		id = attr("id"); n = attr("nodes") + 0; m = attr("edges") + 0; fam = attr("family")
		K = attr("K") + 0; md = attr("mean_degree") + 0; fams[fam]++
		if (attr("generator") != "graph-gen" || attr("stream") != id) bad("generator or stream")
		if (n > 0 && (md - 2 * m / n > 1e-4 * (md + 1) || 2 * m / n - md > 1e-4 * (md + 1))) bad("mean_degree " md " != 2m/n")
		if (fam == "ba" && m != attr("m") * (n - attr("m"))) bad("ba: " m " edges, m " attr("m"))
		if (fam == "hk" && (m != attr("m") * (n - attr("m")) || attr("triads") == "" || attr("p") == "")) bad("hk: " m " edges")
		if (fam == "ws" && (m != n * attr("k") / 2 || attr("k") % 2 || attr("rewired") == "")) bad("ws: " m " edges, k " attr("k"))
		if (fam == "rmat" && attr("edges_drawn") != m + attr("self_loops") + attr("duplicates")) bad("rmat: edges do not add up")
		if (fam == "rgg" && (attr("radius") == "" || attr("cells") == "" || attr("space") == "")) bad("rgg: parameters missing")
		if (fam == "er" && attr("p") == "") bad("er: p missing")
		want_cl = fam == "ws" || fam == "rgg"
		if (want_cl != (K > 0) || want_cl != (attr("within_cluster") != "")) bad(fam ": K " K)
		next
	}
	/^@tensor/ {
		close_graph()
		if (attr("id") != id || attr("name") != "cluster" || attr("cols") != "1" || !want_cl) bad("tensor " $0)
		sec = "t"; rows = 0; want_cl = 0; next
	}
	/^@/ { close_graph(); sec = ""; next }
	sec == "g" {
		u = $1 + 0; v = $2 + 0; got++
		if (!(u < v) || v >= n || u < 0) bad("edge " u " " v)
		if (u < pu || (u == pu && v <= pv)) bad("edge " u " " v " after " pu " " pv)
		pu = u; pv = v
	}
	sec == "t" { rows++; if ($1 < 0 || $1 >= K) bad("cluster " $1 " of K " K) }
	END {
		if (err) exit 1
		close_graph()
		if (want_cl) bad(fam " graph without its cluster tensor")
		if (graphs != G) { print "graph_check: " graphs " graphs, want " G; exit 1 }
		if (FAMS != "") { nf = split(FAMS, f, ","); for (i = 1; i <= nf; i++) if (!fams[f[i]]) { print "graph_check: no " f[i] " graph"; exit 1 } }
	}
EOF

# ---- usage: -h, --version, misuse (exit 2, one line on stderr) ----
expect 0 "graph-gen -h"
check "graph-gen -h | grep -q '^usage: graph-gen '" "-h prints usage on stdout"
check "graph-gen -h | grep -q 'count.*\[1024\]' && graph-gen -h | grep -q 'family.*\[ba,hk,ws,rgg,rmat\]'" "-h shows the defaults"
check "graph-gen --ws-p 0.1..0.2 -h | grep -q 'ws-p.*\[0.1\.\.0.2\]' && graph-gen --rgg-radius 0.1 -h | grep -q 'rgg-degree.*\[unset\]'" "-h shows live values"
expect 0 "graph-gen --version"
expect_err 2 "graph-gen --family bb" "'bb': unknown family"
expect_err 2 "graph-gen --family ba:0" "weight of ba"
expect_err 2 "graph-gen --family ba,ba" "ba given twice"
expect_err 2 "graph-gen --family ''" "unknown family"
expect_err 2 "graph-gen --ws-k 5" "odd"
expect_err 2 "graph-gen --ws-k 1" "--ws-k: 1 is too small"
expect_err 2 "graph-gen --nodes 0" "--nodes"
expect_err 2 "graph-gen --nodes 10..5" "empty"
expect 2 "graph-gen --nodes 1e9"
expect_err 2 "graph-gen --hk-p 1.5" "--hk-p"
expect 2 "graph-gen --ws-p nan"
expect_err 2 "graph-gen --rgg-radius 0.1 --rgg-degree 3" "give one"
expect_err 2 "graph-gen --rgg-space torus --rgg-radius 0.6" "--rgg-radius (on the torus)"
expect_err 2 "graph-gen --rgg-space disc" "expected square or torus"
expect_err 2 "graph-gen --rmat-a 0.1" "--rmat-a"
expect_err 2 "graph-gen --rmat-a 0.7" "above 1"
expect_err 2 "graph-gen --family ba --ws-k 4" "--ws-k: ws is not in --family (ba)"
expect 2 "graph-gen --count -1"
expect_err 2 "graph-gen --first-id 4611686018427387904" "exceeds"
expect 2 "graph-gen -l 10"
expect 2 "graph-gen -j 0"
expect_err 2 "graph-gen --bogus" "unknown option '--bogus'"
expect_err 2 "graph-gen --count" "needs a value"
expect_err 2 "graph-gen somefile" "operand"
check "! graph-gen --ws-k 5 >$T/misuse.out 2>/dev/null; test ! -s $T/misuse.out" "misuse writes nothing on stdout"

# ---- output: every family, canonical, its attributes, its clusters ----
expect 0 "graph-gen -q -t --count 60 -s 3 --family ba,hk,ws,rgg,rmat,er >$T/a.txt"
check "awk -v G=60 -v FAMS=ba,hk,ws,rgg,rmat,er -f $T/check.awk $T/a.txt" "60 canonical graphs of the six families, clusters for ws and rgg"
check "grep '^@graph' $T/a.txt | tr ' ' '\n' | awk -F= '\$1 == \"nodes\" && (\$2 < 100 || \$2 > 2000) { exit 1 }'" "nodes within the default 100..2000"
check "test \"\$(grep -c '^@graph' $T/a.txt)\" = 60 && grep -q '^@graph id=59 ' $T/a.txt" "ids 0..count-1"
expect 0 "graph-gen -q -t --count 40 -s 4 --nodes 1..12 --family ba,hk,ws,rgg,rmat,er --ws-arcs 9 --rgg-cells 4 >$T/tiny.txt"
check "awk -v G=40 -f $T/check.awk $T/tiny.txt" "graphs of 1 to 12 nodes: m, k and K cut to the size"
# fixed parameters are used as given
expect 0 "graph-gen -q -t --count 3 --nodes 300 --family ws --ws-k 6 --ws-p 0 --ws-arcs 5 >$T/ws.txt"
check "test \"\$(grep -c '^@graph id=[0-2] nodes=300 edges=900 .* family=ws .* k=6 p=0 rewired=0 K=5 ' $T/ws.txt)\" = 3" "ws: a lattice of degree 6, 5 arcs"
check "awk '/^@tensor/ { t = 1; r = 0; next } /^@/ { t = 0 } t { if (\$1 != int(r++ * 5 / 300)) exit 1 }' $T/ws.txt" "ws: node u in arc floor(5 u / n)"
expect 0 "graph-gen -q -t --count 2 --nodes 500 --family rgg --rgg-space torus --rgg-radius 0.05 --rgg-cells 1 >$T/rgg.txt"
check "test \"\$(grep -c '^@graph .* family=rgg .* space=torus radius=0.05 mean_degree_target=3.91914 cells=1 K=1 within_cluster=1 ' $T/rgg.txt)\" = 2" "rgg: a given radius, its expected degree (n-1) pi r^2"
expect 0 "graph-gen -q -t --count 1 --nodes 4096 --family rmat --rmat-edge-factor 4 >$T/rmat.txt"
check "grep -q '^@graph id=0 nodes=4096 .* a=0.57 b=0.19 c=0.19 d=0.05 edge_factor=4 edges_drawn=16384 ' $T/rmat.txt" "rmat: Graph500's quadrants, the edges drawn"
# the realised mean degree of a geometric graph is near its target (sd ~0.09)
expect 0 "graph-gen -q -t --count 1 --nodes 3000 --family rgg --rgg-degree 10 -s 5 >$T/md.txt"
check "grep '^@graph' $T/md.txt | tr ' ' '\n' | awk -F= '\$1 == \"mean_degree\" { exit !(\$2 > 9.5 && \$2 < 10.5) }'" "rgg mean degree 10 +- 0.5"
expect 0 "graph-gen -q --count 0 -t >$T/zero.txt"
check "test \"\$(grep -c '^@graph' $T/zero.txt)\" = 0 && grep -q '^@end records=1' $T/zero.txt" "--count 0: an empty stream"
check "graph-gen -q --count 3 --nodes 50 | gzip -t" "default output is gzip"

# ---- determinism ----
graph-gen -q -t -s 11 --count 10 >"$T/c10.txt"
graph-gen -q -t -s 11 --count 30 >"$T/c30.txt"
awk '/^@/ { keep = ($0 ~ "^@(graph|tensor) id=5 ") } keep { sub(/ pg=[^ ]*/, ""); print }' "$T/c10.txt" >"$T/g5a.txt"
awk '/^@/ { keep = ($0 ~ "^@(graph|tensor) id=5 ") } keep { sub(/ pg=[^ ]*/, ""); print }' "$T/c30.txt" >"$T/g5b.txt"
check "test \$(wc -l <$T/g5a.txt) -gt 100" "graph 5 extracted"
same "$T/g5a.txt" "$T/g5b.txt" "graph 5 of --count 10 vs --count 30"
graph-gen -q -t -s 11 --count 5 >"$T/h1.txt"
graph-gen -q -t -s 11 --count 5 --first-id 5 >"$T/h2.txt"
{ strip "$T/h1.txt"; strip "$T/h2.txt"; } >"$T/h12.txt"
strip "$T/c10.txt" >"$T/c10s.txt"
same "$T/h12.txt" "$T/c10s.txt" "--first-id 5 continues --count 5"
graph-gen -q -t -s 4 -j 1 --count 20 >"$T/j1.txt"
graph-gen -q -t -s 4 -j 2 --count 20 >"$T/j2.txt"
strip "$T/j1.txt" >"$T/j1s.txt"
strip "$T/j2.txt" >"$T/j2s.txt"
same "$T/j1s.txt" "$T/j2s.txt" "--threads 1 vs --threads 2"
# another family's ranges leave a ba graph as it was
graph-gen -q -t -s 4 --count 20 --ws-k 4 --rgg-degree 3 >"$T/other.txt"
check "grep '^@graph .*family=ba ' $T/j1.txt >$T/ba1 && grep '^@graph .*family=ba ' $T/other.txt | sed 's/ pg=[^ ]*//' >$T/ba2 &&
	sed -i 's/ pg=[^ ]*//' $T/ba1 && test -s $T/ba1 && cmp -s $T/ba1 $T/ba2" "ws and rgg ranges leave the ba graphs alone"
graph-gen -q -t -s 12 --count 10 >"$T/s12.txt"
strip "$T/s12.txt" >"$T/s12s.txt"
check "! cmp -s $T/c10s.txt $T/s12s.txt" "seeds 11 and 12 differ"

# ---- YAML configuration ----
cat >"$T/good.yaml" <<'EOF'
# a mix: keys as options, a family's options as a section
count: 6
nodes: 30..40
family: ba:2,ws
ba:
  m: 2..3
ws_k: [4, 6]
ws.p: 0.1
seed: 5
EOF
expect 0 "graph-gen -q -t --config $T/good.yaml >$T/y.txt"
check "awk -v G=6 -f $T/check.awk $T/y.txt" "config: 6 graphs"
check "grep '^@graph' $T/y.txt | tr ' ' '\n' | awk -F= '\$1 == \"family\" && \$2 != \"ba\" && \$2 != \"ws\" { exit 1 } \$1 == \"nodes\" && (\$2 < 30 || \$2 > 40) { exit 1 } \$1 == \"p\" && \$2 != 0.1 { exit 1 }' &&
	grep -q 'seed=5' $T/y.txt" "config ranges, family list and seed are used"
expect 0 "graph-gen -q -t --config $T/good.yaml --count 2 --nodes 50 --family rgg >$T/y2.txt"
check "test \"\$(grep -c '^@graph id=[01] nodes=50 .* family=rgg ' $T/y2.txt)\" = 2" "options override the file"
check "graph-gen --config $T/good.yaml -h | grep -q 'ws-k.*\[4\.\.6\]'" "-h shows the file's settings"
printf 'ba-m: 2\nba:\n  m: 3\n' >"$T/twice.yaml"
expect_err 2 "graph-gen --config $T/twice.yaml" "ba-m given twice (as ba.m)"
printf 'count: 2\nbogus_key: 3\n' >"$T/bad.yaml"
expect_err 2 "graph-gen --config $T/bad.yaml" "bogus_key"
printf 'family: bb\n' >"$T/fam.yaml"
expect_err 2 "graph-gen --config $T/fam.yaml" "fam.yaml: family: 'bb': unknown family"
printf 'rgg:\n  radius: 0.1\n  degree: 4\n' >"$T/both.yaml"
expect_err 2 "graph-gen --config $T/both.yaml" "give one"
printf 'rgg_radius: 0.1\ncount: 2\nfamily: rgg\n' >"$T/rad.yaml"
expect 0 "graph-gen -q -t --config $T/rad.yaml >$T/yr.txt"
check "test \"\$(grep -c 'radius=0.1 ' $T/yr.txt)\" = 2" "the file's radius replaces the default mean degree"
expect 0 "graph-gen -q -t --config $T/rad.yaml --rgg-degree 4 >$T/yr2.txt"
check "test \"\$(grep -c 'mean_degree_target=4 ' $T/yr2.txt)\" = 2" "--rgg-degree on the command line beats the file's radius"
expect_err 2 "graph-gen --config $T/missing.yaml" "missing.yaml"

# ---- errors: write failures, -o never leaves a partial file ----
expect_err 1 "graph-gen -q --count 50 >/dev/full" "write error"
expect 0 "graph-gen -q --count 3 --nodes 40 -o $T/o.gs"
check "gzip -t <$T/o.gs && ! ls $T/o.gs.tmp* >/dev/null 2>&1" "-o writes the file, no temporary left"
expect_err 1 "graph-gen -q --count 1 --nodes 100000 --family rmat --rmat-edge-factor 1000000" "exceed the limit"
expect_err 1 "graph-gen -q --count 1 -o $T/nodir/x.gs" "nodir"

# ---- progress ----
check "graph-gen --count 5 --nodes 30 -o $T/p.gs 2>&1 | wc -c | grep -qx 0" "no progress when stderr is not a terminal"
check "graph-gen --progress --count 5 --nodes 30 -o $T/p.gs 2>&1 | grep -q '^graph-gen: 5/5 graphs'" "--progress forces it"

# ---- the next programs read it ----
graph-gen -q -l 0 --count 12 --nodes 20..120 -s 6 --family ba,hk,ws,rgg,rmat,er >"$T/mix.gs"
expect 0 "centrality -q -o $T/lab.gs $T/mix.gs"
expect 0 "mask-edges -q -o $T/masked.gs $T/lab.gs"
expect 0 "nodefeat -q -o $T/feat.gs $T/masked.gs"
expect 0 "gcn-train -q -j 1 --tasks rec,rank --hidden 8 --epochs 1 --batch 4 --validation 2 -o $T/m.gs $T/lab.gs"
expect 0 "gcn-train -q -j 1 --tasks rec,rank --hidden 8 --epochs 1 --batch 4 --validation 2 -o $T/m2.gs $T/feat.gs"
# the cluster task leaves out the graphs without clusters (ba, hk, rmat,
# er), and says so; with none that has them it is an error
check "gcn-train -j 1 --hidden 8 --epochs 1 --batch 4 --validation 2 -o $T/m3.gs $T/lab.gs 2>&1 | grep -q \"graphs (the first: [0-9]*) have no 'cluster' tensor: the cluster task leaves them out\"" \
	"the cluster task leaves out graphs without clusters, said once"
graph-gen -q -l 0 --count 6 --nodes 20..60 -s 6 --family ba,rmat | centrality -q -l 0 >"$T/nocl.gs"
expect_err 1 "gcn-train -q -j 1 --hidden 8 --epochs 1 --batch 2 --validation 2 -o $T/m5.gs $T/nocl.gs" "no 'cluster' tensor"
# ws and rgg graphs beside DCBM graphs: every graph has clusters, all tasks train
graph-gen -q -l 0 --count 6 --nodes 30..80 -s 6 --family ws,rgg >"$T/wr.gs"
dcbm-gen -q -l 0 --count 6 --nodes 30..80 -s 6 --first-id 6 >"$T/dc.gs"
check "cat $T/wr.gs $T/dc.gs | centrality -q -l 0 >$T/lab4.gs && gcn-train -q -j 1 --hidden 8 --epochs 1 --batch 4 --validation 2 -o $T/m4.gs $T/lab4.gs" \
	"ws, rgg and DCBM graphs train the three tasks"

# ---- the mixed corpus: pipelines/corpus.sh and corpus.mk ----
C="sh $TOP/pipelines/corpus.sh"
check "(cd $TOP/pipelines && $C plan corpus.yaml) >$T/plan.tsv" "corpus.yaml plans"
check "awk -F '\t' '{ if (\$3 != id) exit 1; id += \$4; if (\$2 == \"val\") v += \$4 } END { exit !(id == 1024 && v == 124) }' $T/plan.tsv" \
	"corpus.yaml: 1024 graphs, ids in turn, 124 for validation"
check "awk -F '\t' '\$5 == \"dcbm-gen\" && \$6 ~ /--config dcbm.yaml/ { d++ } \$6 ~ /--nodes 10\.\.100/ { s += \$4 } END { exit !(d == 2 && s == 256) }' $T/plan.tsv" \
	"corpus.yaml: the DCBM part reads dcbm.yaml, a quarter of the graphs are small"
check "(cd $TOP/pipelines && $C files corpus.yaml) | grep -qx dcbm.yaml" "corpus.sh files: the configs read"
cat >"$T/tiny.yaml" <<'EOF'
# a tiny mix
seed: 3
big:
  program: dcbm-gen
  count: 6
  nodes: 40..80   # a range
fam:
  count: 10
  nodes: 30..60
  family: ba,ws,rgg:2
small:
  count: 8
  nodes: 10..20
  family: er,ws
  ws_arcs: 2
EOF
P="make -s -C $TOP/pipelines BIN=$BIN BUILD=$T/pb MIX=$T/tiny.yaml"
expect 0 "$P corpus >$T/corpus.out 2>$T/corpus.err"
check "centrality -q -t $T/pb/corpus-mix.gs | grep '^@graph' | cut -d' ' -f2 | tr '\n' ' ' |
	grep -qx 'id=0 id=1 id=2 id=3 id=4 id=6 id=7 id=8 id=9 id=10 id=11 id=12 id=13 id=14 id=16 id=17 id=18 id=19 id=20 id=21 id=22 id=5 id=15 id=23 '" \
	"corpus: the parts in turn, each part's last graphs (3 of 24) at the end"
check "gzip -dc $T/pb/corpus-mix.gs | grep -c 'centrality' >/dev/null && centrality -q -t $T/pb/corpus-mix.gs | grep -c '^@tensor .*name=centrality' | grep -qx 24" \
	"corpus: every graph has its centralities"
expect 0 "gcn-train -q -j 1 --tasks rec,rank --hidden 8 --epochs 1 --batch 4 -o $T/mc.gs $T/pb/corpus-mix.gs"
check "! ls -d $T/pb/corpus-mix.gs.parts >/dev/null 2>&1" "corpus: no parts left behind"
expect 0 "$P corpus >$T/corpus2.out 2>$T/corpus2.err"
check "! grep -q centrality $T/corpus2.err" "corpus: made once"
printf 'seed: 3\nbig:\n  program: dcbm-gen\n  count: 7\n' >"$T/tiny2.yaml"
expect 0 "$P MIX=$T/tiny2.yaml corpus >/dev/null 2>&1"
check "centrality -q -t $T/pb/corpus-mix.gs | grep -c '^@graph' | grep -qx 7" "corpus: a new MIX remakes it"
# the default mix is corpus.yaml, whatever coverage.mk's CORPUS (the
# stream it measures) is
check "make -n -C $TOP/pipelines BIN=$BIN BUILD=$T/pb-default corpus 2>&1 | grep -q 'corpus.sh build corpus.yaml '" \
	"corpus: the default mix is corpus.yaml (not coverage's CORPUS)"
# corpus.sh refuses what it does not read, in one line naming the line
cbad() {	# cbad TEXT: corpus.sh plan $T/c.yaml fails, one line, with TEXT
	check "! sh $TOP/pipelines/corpus.sh plan $T/c.yaml >/dev/null 2>$T/c.err && [ \$(wc -l <$T/c.err) -eq 1 ] &&
		grep -q '^corpus.sh: ' $T/c.err && grep -qF -- '$1' $T/c.err" "corpus.sh refuses: $1"
}
printf 'a:\n  count: 2\n  nodes: [3, 4]\n' >"$T/c.yaml"
cbad 'line 3: nodes: "[3, 4]" is not a plain word'
printf 'a:\n  nodes: 3\n' >"$T/c.yaml"
cbad "part a has no count"
printf 'a:\n  count: 2\n  first-id: 4\n' >"$T/c.yaml"
cbad "line 3: first-id: corpus.sh sets it"
printf 'a:\n  count: 2\n  program: motif-gen\n' >"$T/c.yaml"
cbad "dcbm-gen or graph-gen"
printf 'bogus: 1\n' >"$T/c.yaml"
cbad "line 1: unknown top-level key bogus"
printf 'a:\n  count: 2\n  count: 3\n' >"$T/c.yaml"
cbad "line 3: count given twice"
printf 'a:\n  count: 2\nvalidation: 3\n' >"$T/c.yaml"
cbad "validation 3 of 2 graphs"
printf 'a:\n  count: 2\n   nodes: 3\n' >"$T/c.yaml"
cbad "line 3: indentation"
printf 'a:\n  count: 2\n  nodez: 3\n' >"$T/opt.yaml"
check "! sh $TOP/pipelines/corpus.sh build $T/opt.yaml $T/opt.gs 2>$T/opt.err && grep -q \"unknown option '--nodez'\" $T/opt.err && test ! -e $T/opt.gs" \
	"corpus: an unknown key is the program's unknown option, and no corpus"
