#!/bin/sh
# make-inputs.sh DIR - build the bad inputs of tests/badinput/cases.tsv in DIR.
#
# Good streams are made with the programs themselves (fixed seeds, tiny
# graphs), then cut, corrupted or edited with head, sed, awk and printf:
# every file named in the table's input column is made here.  Needs the
# programs on PATH.  Deterministic: the same bytes on every run.
set -eu
B=$1
mkdir -p "$B"
cd "$B"

# ---- good bases ----
# two DCBM graphs of 30 nodes with their clusters: text, gzip binary, plain binary
dcbm-gen -q -s 1 --count 2 --nodes 30 -t >g.txt
dcbm-gen -q -s 1 --count 2 --nodes 30 >g.gs
dcbm-gen -q -s 1 --count 2 --nodes 30 -l 0 >gp.gs
# the same with centralities (gcn-train's input)
centrality -q -s 1 -t g.txt >lab.txt
centrality -q -s 1 g.txt >lab.gs
centrality -q -s 1 -l 0 g.txt >labp.gs
# one graph whose clusters are the classes (gcn-adapt --label cluster)
dcbm-gen -q -s 1 --count 1 --nodes 30 -t >node.txt
dcbm-gen -q -s 1 --count 1 --nodes 30 >node.gs
# a tiny model (gcn-adapt --model)
gcn-train -q -j 1 -s 1 --hidden 8 --epochs 1 --batch 2 --validation 1 -o model.gs lab.gs
gcn-train -q -j 1 -s 1 --hidden 8 --epochs 1 --batch 2 --validation 1 -t -o model.txt lab.gs
gcn-train -q -j 1 -s 1 --hidden 8 --epochs 1 --batch 2 --validation 1 -l 0 -o modelp.gs lab.gs
# an adapted model of node.gs (gcn-adapt --save-model; --predict takes it)
AD="-q -j 1 -s 1 --head-width 8 --runs 1 --epochs 2 --label cluster --model model.gs --train-per-class 2 --val 5 --test 5 -o /dev/null"
gcn-adapt $AD --save-model adapted.gs node.gs
gcn-adapt $AD -t --save-model adapted.txt node.gs
# predictions of two runs (evalf1); the binary form made by a pass-through filter
cp "$TOP/tests/cli/data/eval-two-runs.txt" pred.txt
mask-edges -q pred.txt >pred.gs
mask-edges -q -l 0 pred.txt >predp.gs
# an edge list (graph-import -f edgelist)
awk '/^@graph id=1/ { exit } /^@/ { on = /^@graph/; next } on' g.txt >el.txt

# ---- helpers ----
# ed IN OUT SED-SCRIPT: edit a text stream; the trailer becomes a bare
# '@end' (its record count and checksum no longer hold), so the error seen
# is the one the edit made.
ed() { sed -e "$3" -e 's/^@end .*/@end/' "$1" >"$2"; }
# le32 N: N as a 32-bit little-endian integer
le32() {
	printf "\\$(printf %03o $(($1 & 255)))\\$(printf %03o $(($1 >> 8 & 255)))"
	printf "\\$(printf %03o $(($1 >> 16 & 255)))\\$(printf %03o $(($1 >> 24 & 255)))"
}
# bhdr TEXT: a binary record header (length + text)
bhdr() { le32 ${#1}; printf '%s' "$1"; }
# bmagic [VERSION]: the 12-byte binary segment header
bmagic() { printf '\211GNS'; le32 "${1:-1}"; le32 0; }
# bstream OUT RECFILE N: a plain binary segment of the N records in RECFILE,
# with a correct trailer (CRC-32 from gzip's member trailer)
bstream() {
	crc=$(gzip -c <"$2" | tail -c 8 | head -c 4 | od -An -tx4 | tr -d ' ')
	{ bmagic; cat "$2"; bhdr "end records=$3 crc32=$crc"; } >"$1"
}

# ---- empty, garbage, wrong magic, future versions ----
: >empty
printf '\001\002\003\377\376\375garbage\000\n' >garbage.bin
printf 'hello, world\nthis is not a graph\n' >garbage.txt
printf '\211GNX\001\000\000\000\000\000\000\000' >magic.gs
printf '##gnnstreem 1\n@end\n' >magic.txt
bmagic 99 >v99.gs
ed g.txt v2.txt '1s/^##gnnstream 1$/##gnnstream 2/'
ed pred.txt pred-v2.txt '1s/^##gnnstream 1$/##gnnstream 2/'
printf '##gnnstream 0\n@end\n' >v0.txt
# a binary header whose first 12 bytes are fine, then nothing
{ bmagic; printf '\007\000'; } >short-hdr.gs

# ---- truncated gzip members, streams cut inside a record ----
head -c 300 g.gs >g-trunc.gs
head -c 300 lab.gs >lab-trunc.gs
head -c 200 node.gs >node-trunc.gs
head -c 200 pred.gs >pred-trunc.gs
head -c 400 model.gs >model-trunc.gs
gzip -c el.txt | head -c 100 >el-trunc.txt.gz
# a gzip member with a flipped byte in the middle
cp g.gs g-flip.gs
printf '\377' | dd of=g-flip.gs bs=1 seek=200 count=1 conv=notrunc 2>/dev/null
# binary: inside the edges of graph 0 (header ~300 bytes + 141 * 8)
head -c 1000 gp.gs >g-cut.gs
head -c 1000 labp.gs >lab-cut.gs
head -c 350 predp.gs >pred-cut.gs
head -c 3000 modelp.gs >model-cut.gs
# text: inside the edges of graph 0, inside a tensor, inside a model parameter
head -n 50 g.txt >g-cut.txt
head -n 160 lab.txt >lab-cut.txt
head -n 40 node.txt >node-cut.txt
head -n 6 pred.txt >pred-cut.txt
head -n 30 model.txt >model-cut.txt
# text: a last line cut in the middle (no newline)
head -c 700 g.txt >g-cutline.txt
# a segment without its end record
sed '$d' g.txt >g-noend.txt

# ---- absurd and negative sizes ----
printf '##gnnstream 1\n@graph id=0 nodes=1000000000000 edges=1\n0 1\n@end\n' >nodes1e12.txt
# within int32 but beyond the per-graph node limit: 60 bytes that used to
# make nodefeat allocate 12 GB and more
printf '##gnnstream 1\n@graph id=0 nodes=2000000000 edges=1\n0 1\n@end\n' >nodes2e9.txt
printf '0 1\n1 2000000000\n' >bigid-el.txt
printf '##gnnstream 1\n@graph id=0 nodes=30 edges=1000000000000\n0 1\n@end\n' >edges1e12.txt
printf '##gnnstream 1\n@pairs id=0 name=mask count=1000000000000 labels=i32\n0 1 1\n@end\n' >pairs1e12.txt
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=1000000000000 cols=3 type=i32 columns=item,true,pred classes=3\n0 0 0\n@end\n' >rows1e12.txt
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=1000000 cols=1000000 type=f64 columns=x\n0\n@end\n' >elems1e12.txt
# tensors under the element limit whose rows never come: 4096 rows of 10^7
# values (one short line), 10^9 rows (one line)
printf '##gnnstream 1\n@tensor id=0 name=x rows=4096 cols=10000000 type=f64\n0\n@end\n' >wide.txt
printf '##gnnstream 1\n@tensor id=0 name=x rows=1000000000 cols=1 type=f64\n0\n@end\n' >rows1e9.txt
# a smaller lie: 10^10 edges (under the limit), three given
printf '##gnnstream 1\n@graph id=0 nodes=30 edges=10000000000\n0 1\n1 2\n2 3\n@end\n' >edges1e10.txt
{ bmagic; bhdr 'graph id=0 nodes=30 edges=1000000000000'; } >edges1e12.gs
{ bmagic; bhdr 'graph id=0 nodes=30 edges=10000000000'; le32 0; le32 1; } >edges1e10.gs
{ bmagic; bhdr 'tensor id=0 name=predictions rows=1000000000 cols=3 type=i32 columns=item,true,pred'; le32 0; } >rows1e9.gs
# a record header length of 2^31
{ bmagic; le32 2147483647; printf 'graph'; } >hlen.gs
ed g.txt nodes-neg.txt '0,/^@graph/s/nodes=30/nodes=-30/'
ed g.txt edges-neg.txt '0,/^@graph/s/edges=141/edges=-1/'
ed lab.txt rows-neg.txt '0,/^@tensor/s/rows=30/rows=-30/'
ed pred.txt pred-rows-neg.txt '0,/^@tensor/s/rows=8/rows=-8/'
ed node.txt label-neg.txt '/^@tensor/s/rows=30/rows=-1/'
printf '##gnnstream 1\n@pairs id=0 name=mask count=-2 labels=i32\n@end\n' >count-neg.txt
{ bmagic; bhdr 'graph id=0 nodes=30 edges=-5'; } >edges-neg.gs
# a header length with the sign bit set
{ bmagic; le32 4294967295; } >hlen-neg.gs

# ---- node ids out of range, in every form ----
ed g.txt range.txt '4s/^0	3$/0	30/'
ed g.txt range-neg.txt '4s/^0	3$/-1	3/'
ed node.txt node-range.txt '4s/^0	3$/0	30/'
printf '0 1\n1 -2\n' >range-el.txt
printf '0 1\n1 3000000000\n' >range-el-big.txt
# binary: graph of 3 nodes, edges 0-1, 1-9
{ bhdr 'graph id=0 nodes=3 edges=2'; le32 0; le32 1; le32 1; le32 9; } >range.rec
bstream range.gs range.rec 1
# pairs of graph 0 naming node 30 (a graph of 30 nodes)
awk '/^@tensor id=0/ { print "@pairs id=0 name=mask count=2 labels=i32"; print "0\t3\t1"; print "1\t30\t0" } { print }' lab.txt |
	sed 's/^@end .*/@end/' >pairs-range.txt

# ---- NaN and infinities in tensors ----
# the first centrality value of graph 0 (line after its tensor header)
awk 'p { sub(/^[^\t]*/, V); p = 0 } /^@tensor id=0 name=centrality/ { p = 1 } { print }' V=nan lab.txt |
	sed 's/^@end .*/@end/' >nan.txt
awk 'p { sub(/^[^\t]*/, V); p = 0 } /^@tensor id=0 name=centrality/ { p = 1 } { print }' V=inf lab.txt |
	sed 's/^@end .*/@end/' >inf.txt
awk 'p { sub(/^[^\t]*/, V); p = 0 } /^@tensor id=1 name=centrality/ { p = 1 } { print }' V=-Infinity lab.txt |
	sed 's/^@end .*/@end/' >ninf.txt
# 1e999 overflows to inf on reading
awk 'p { sub(/^[^\t]*/, V); p = 0 } /^@tensor id=0 name=centrality/ { p = 1 } { print }' V=1e999 lab.txt |
	sed 's/^@end .*/@end/' >huge.txt
# attributes of the gcn-adapt graph: 30 x 2 float64, one NaN / inf
attrs() {
	sed '$d' node.txt
	echo "@tensor id=0 name=attributes rows=30 cols=2 type=$2 columns=a,b"
	awk -v bad="$1" 'BEGIN { for (i = 0; i < 30; i++) print (i == 7 ? bad : i / 10) "\t" 1 }'
	echo '@end'
}
attrs 0.5 f64 >attr.txt
attrs nan f64 >attr-nan.txt
attrs inf f32 >attr-inf.txt
attrs 1e39 f32 >attr-f32big.txt
# predictions with a NaN in a score column, and with NaN as a class
ed pred.txt pred-nan.txt '3s/^0	0	0$/0	nan	0/'
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=2 cols=3 type=f64 columns=true,pred,score classes=2\n0 0 0.5\n1 1 inf\n@end\n' >pred-inf.txt
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=2 cols=2 type=f64 columns=true,pred classes=2\n0 0\n1 nan\n@end\n' >pred-nanclass.txt
# binary: a float64 NaN and a float32 +inf
{ bhdr 'tensor id=0 name=centrality rows=1 cols=1 type=f64 columns=eigenvector'; printf '\000\000\000\000\000\000\370\177'; } >nan.rec
bstream nan.gs nan.rec 1
{ bhdr 'tensor id=0 name=predictions rows=1 cols=2 type=f32 columns=true,pred classes=2'; printf '\000\000\000\000\000\000\200\177'; } >pinf.rec
bstream pred-inf.gs pinf.rec 1
# a model parameter holding NaN (text form: the first value of embed.W)
awk 'p { sub(/^[^\t ]*/, "nan"); p = 0 } /^@param name=embed.W / { p = 1 } { print }' model.txt |
	sed 's/^@end .*/@end/' >model-nan.txt

# ---- duplicate edges and self-loops in graph records ----
# addedge IN OUT 'u v': one more edge in the first graph record, after its
# first edge (the header's count follows)
addedge() {
	awk -v e="$3" 'g == 1 { print; print e; g = 2; next }
		g == 0 && /^@graph/ { m = $0; sub(/.* edges=/, "", m); sub(/ .*/, "", m)
			sub(/ edges=[0-9]+/, " edges=" (m + 1)); g = 1 }
		{ print }' "$1" | sed 's/^@end .*/@end/' >"$2"
}
# graph 0 starts "0 3": repeat it, repeat it reversed, add a self-loop
addedge g.txt dup.txt '0	3'
addedge g.txt dup-rev.txt '3	0'
addedge g.txt loop.txt '5	5'
addedge lab.txt lab-dup.txt '3	0'
addedge lab.txt lab-loop.txt '7	7'
addedge node.txt node-dup.txt '0	3'
addedge node.txt node-loop.txt '2	2'
{ bhdr 'graph id=0 nodes=3 edges=3'; le32 0; le32 1; le32 1; le32 1; le32 2; le32 0; } >dup.rec
bstream dup.gs dup.rec 1
{ bhdr 'graph id=0 nodes=3 edges=2'; le32 0; le32 2; le32 1; le32 2; } >loop.rec
bstream loop.gs loop.rec 1
# plain edge lists with both (simplified, with a warning: exit 0)
printf '0 1\n1 2\n2 0\n1 0\n2 2\n' >duploop-el.txt

# ---- records whose graph id does not match the graph they follow ----
ed g.txt tensor-id.txt '0,/^@tensor id=0/s/^@tensor id=0/@tensor id=1/'
ed lab.txt cent-id.txt '0,/^@tensor id=0 name=centrality/s/^@tensor id=0/@tensor id=5/'
ed lab.txt clus-id.txt '/^@tensor id=0 name=cluster/s/^@tensor id=0/@tensor id=1/'
awk '/^@tensor id=0 name=cluster/ { print "@pairs id=1 name=mask count=1 labels=i32"; print "0\t3\t1" } { print }' lab.txt |
	sed 's/^@end .*/@end/' >pairs-id.txt
ed node.txt label-id.txt '/^@tensor/s/id=0/id=3/'
ed attr.txt attr-id.txt '/^@tensor id=0 name=attributes/s/id=0/id=2/'
# a tensor before any graph
awk 'NR == 2 { print "@tensor id=0 name=cluster rows=1 cols=1 type=i32"; print 0 } { print }' lab.txt |
	sed 's/^@end .*/@end/' >orphan.txt
# graph classification: a label record of another graph
printf '##gnnstream 1\n@graph id=0 nodes=3 edges=2\n0 1\n1 2\n@label id=0 name=label value=0\n@graph id=1 nodes=3 edges=2\n0 1\n0 2\n@label id=0 name=label value=1\n@end\n' >glabel-id.txt
# evalf1: the same run twice
sed -e '/^@end/d' pred.txt >pred-twice.txt
sed -n '/^@tensor id=1/,/^@end/p' pred.txt | sed 's/^@tensor id=1/@tensor id=0/' >>pred-twice.txt
sed -i 's/^@end .*/@end/' pred-twice.txt

# ---- per-graph records of the wrong shape ----
ed lab.txt cent-rows.txt '0,/^@tensor id=0 name=centrality/s/rows=30/rows=29/; 0,/^@tensor id=0 name=centrality/{/^@tensor/{n;d}}'
ed lab.txt clus-type.txt '0,/^@tensor id=0 name=cluster/s/name=cluster rows=30 cols=1 type=i32/name=cluster rows=30 cols=1 type=f64/'
ed lab.txt clus-range.txt '/^@tensor id=0 name=cluster/{n;s/^.*$/99/}'
ed node.txt label-rows.txt '/^@tensor/s/rows=30/rows=29/; /^@tensor/{n;d}'
ed node.txt label-big.txt '/^@tensor/{n;s/^.*$/2000000/}'
# column names that do not match cols= (two names, one column)
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=2 cols=1 type=i32 columns=true,pred classes=2\n0\n1\n@end\n' >pred-cols.txt
ed lab.txt cent-cols.txt '0,/^@tensor id=0 name=centrality/s/cols=5 type=f64/cols=4 type=f64/; /^@tensor id=0 name=centrality/,/^@/s/	[^	]*$//'
# classes: absurd counts, labels outside them
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=1 cols=2 type=i32 columns=true,pred classes=1000000\n0 0\n@end\n' >pred-classes.txt
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=1 cols=2 type=i32 columns=true,pred\n2147483647 0\n@end\n' >pred-maxclass.txt
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=2 cols=2 type=i32 columns=true,pred classes=2\n0 0\n1 -1\n@end\n' >pred-negclass.txt
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=0 cols=2 type=i32 columns=true,pred classes=2\n@end\n' >pred-empty.txt
# graphs without nodes
printf '##gnnstream 1\n@graph id=0 nodes=0 edges=0\n@tensor id=0 name=cluster rows=0 cols=1 type=i32\n@tensor id=0 name=centrality rows=0 cols=5 type=f64 columns=eigenvector,betweenness,closeness,subgraph,subgraph_log\n@end\n' >nonodes.txt
# a model record with a parameter of an absurd shape
awk '/^@param name=embed.W / { sub(/rows=[0-9]+/, "rows=1000000000") } { print }' model.txt |
	sed 's/^@end .*/@end/' >model-shape.txt
# a stream with no model record, given as --model
cp g.txt nomodel.txt
# the model's own config: an unknown key, a wrong type (same byte count)
sed 's/^model\.hidden: 8$/model.hidxen: 8/; s/^@end .*/@end/' model.txt >model-key.txt
sed 's/^model\.hidden: 8$/model.hidden: x/; s/^@end .*/@end/' model.txt >model-type.txt
# a parameter name given twice; a config byte that is not UTF-8 (the last
# line "seed: 1" becomes "seed: " and 0xff), for gcn-export
sed 's/^@param name=block1\.W2 /@param name=block1.W1 /; s/^@end .*/@end/' model.txt >model-dup.txt
sed "s/^seed: 1\$/seed: $(printf '\377')/; s/^@end .*/@end/" model.txt >model-latin1.txt
# a class tensor without columns: no class to read
awk '/^@tensor/ { sub(/cols=1/, "cols=0"); sub(/ columns=cluster/, ""); t = 1; print; next }
	t && !/^@/ { print ""; next } { t = 0; print }' node.txt | sed 's/^@end .*/@end/' >label-cols0.txt

# ---- inference: adapted models, classes that are not known ----
head -c 400 adapted.gs >adapted-trunc.gs
# a head tensor left out (the record's params= count follows)
awk '/^@model/ { sub(/params=[0-9]+/, "params=" substr($0, index($0, "params=") + 7) - 1) }
	/^@param name=head.gcn2.b / { skip = 1; next } skip && /^@/ { skip = 0 } !skip { print }' adapted.txt |
	sed 's/^@end .*/@end/' >adapted-nohead.txt
# config values of the same byte count: an unknown task, another head width
sed 's/^adapt\.task: "node"$/adapt.task: "edge"/; s/^@end .*/@end/' adapted.txt >adapted-task.txt
sed 's/^adapt\.head_width: 8$/adapt.head_width: 9/; s/^@end .*/@end/' adapted.txt >adapted-width.txt
awk 'p { sub(/^[^\t ]*/, "nan"); p = 0 } /^@param name=head.gcn2.W / { p = 1 } { print }' adapted.txt |
	sed 's/^@end .*/@end/' >adapted-nan.txt
# node 0 of a class the model does not have; no node with a class
ed node.txt node-c9.txt '/^@tensor/{n;s/^.*$/9/}'
awk '/^@tensor/ { t = 1; print; next } /^@/ { t = 0 } t { $0 = -1 } { print }' node.txt |
	sed 's/^@end .*/@end/' >node-unl.txt
# predictions whose true classes are all unknown (-1), or not whole
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=2 cols=2 type=i32 columns=true,pred classes=2\n-1 0\n-1 1\n@end\n' >pred-unknown.txt
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=1 cols=2 type=f64 columns=true,pred classes=2\n-0.5 0\n@end\n' >pred-truefrac.txt

# ---- YAML configurations ----
printf 'count: 2\nnodes: 30\nbogus_key: 1\n' >dcbm-unknown.yaml
printf 'count: 2\nnodes: thirty\n' >dcbm-type.yaml
printf 'count: [1, 2, 3]\n' >dcbm-seq.yaml
printf 'count: 2\nnodes: 30..20\n' >dcbm-range.yaml
printf 'count: 2\nnodes: "30\n' >dcbm-syntax.yaml
printf -- '- count\n- 2\n' >dcbm-list.yaml
printf 'count: 2\ncount: 3\n' >dcbm-twice.yaml
printf 'model:\n  hidden: 8\n  hiden: 8\n' >train-unknown.yaml
printf 'model:\n  hidden: eight\n' >train-type.yaml
printf 'train:\n  lr: [0.1, 0.2]\n' >train-seq.yaml
printf 'train:\n  epochs: -1\n' >train-neg.yaml
printf 'model: {hidden: 8\n' >train-syntax.yaml
printf 'model: 8\n' >train-scalar.yaml
printf 'train:\n  lr: nan\n' >train-nan.yaml
printf 'model:\n  hidden: 8\nmodel.hidden: 9\n' >train-twice.yaml

# ---- foreign formats (graph-import) ----
D="$TOP/tests/cli/data"
cp "$D/import-tiny.content" tiny.content
cp "$D/import-tiny.cites" tiny.cites
: >empty.content
head -c 30 tiny.content >cut.content
gzip -c tiny.content | head -c 40 >trunc.content.gz
awk 'NR == 2 { $2 = "nan" } { print }' OFS='\t' tiny.content >nan.content
awk 'NR == 2 { $2 = "inf" } { print }' OFS='\t' tiny.content >inf.content
mkdir -p tu ml tu-range tu-ind tu-gz ml-rating ml-gz ml-garbage
for f in "$D"/import-tu_*; do cp "$f" "tu/x_${f##*/import-tu_}"; done
cp -R "$D/import-ml100k/." ml/
cp tu/* tu-range/ && sed -i '1s/.*/1, 99/' tu-range/x_A.txt
cp tu/* tu-ind/ && sed -i '2s/.*/-1/' tu-ind/x_graph_indicator.txt
cp tu/* tu-gz/ && rm tu-gz/x_A.txt && gzip -c tu/x_A.txt | head -c 30 >tu-gz/x_A.txt.gz
cp ml/* ml-rating/ && sed -i '1s/\t5\t/\t9\t/' ml-rating/u.data
cp ml/* ml-gz/ && rm ml-gz/u.data && gzip -c ml/u.data | head -c 40 >ml-gz/u.data.gz
cp ml/* ml-garbage/ && cp garbage.bin ml-garbage/u.data
printf '1 1000000000000\n' >el-1e12.txt
printf '0 1\n' >el-small.txt

# ---- outputs never clobber; checkpoints (issue 37, section 3) ----
# a read-only output file, a link to it, a link into a missing directory;
# copies of inputs that a broken run would replace (never the shared ones)
cp g.gs ro-out.gs
chmod 0444 ro-out.gs
ln -sf ro-out.gs ro-link.gs
ln -sf nothere/x.gs nodir-link.gs
cp lab.gs ck-input.gs
cp lab.gs log-input.gs
cp model.gs model-save.gs
# a checkpoint of one epoch of one step, and edits gcn-train never writes
gcn-train -q -j 1 -s 1 --hidden 8 --epochs 1 --batch 2 --validation 1 -t --checkpoint ck.txt \
	-o /dev/null lab.gs
cp ck.txt ck-resume.txt
# cpar IN OUT TENSOR VALUE: the first value of TENSOR set to VALUE
cpar() {
	awk -v t="$3" -v v="$4" 'p { sub(/^[^\t ]*/, v); p = 0 } index($0, "@param name=" t " ") == 1 { p = 1 }
		{ print }' "$1" | sed 's/^@end .*/@end/' >"$2"
}
cpar ck.txt ck-adamv-neg.txt state.adam_v -0.5
cpar ck.txt ck-nan.txt state.adam_m nan
ed ck.txt ck-adamt.txt 's/ state\.adam_t=1 / state.adam_t=7 /'
ed ck.txt ck-best.txt 's/ state\.best_epoch=1 / state.best_epoch=5 /'
ed ck.txt ck-score.txt 's/ state\.best_score=[^ ]* / state.best_score=2 /'
# without its state.adam_m tensor (one parameter fewer)
awk '/^@model/ { n = $0; sub(/.* params=/, "", n); sub(/ .*/, "", n); sub(/ params=[0-9]+/, " params=" (n - 1)) }
	/^@param name=state\.adam_m / { skip = 1; next } /^@/ { skip = 0 } !skip' ck.txt |
	sed 's/^@end .*/@end/' >ck-missing.txt
# ---- files that name a feature command (issue 37): a model, an adapted
# model, a stage name that is a command line, a config ----
MC="$TOP/tests/cli/modelcfg.awk"
TC="-q -j 1 -s 1 --hidden 8 --epochs 1 --batch 2 --validation 1"
gcn-train $TC --features 'nodefeat -l 1' -t -o model-cmd0.txt lab.gs
awk -v key=features.command -v val="touch $B/pwned; nodefeat -j 1" -f "$MC" model-cmd0.txt >model-cmd.txt
awk -v key=features.stage -v val="touch $B/pwned" -f "$MC" model-cmd0.txt >model-stage.txt
gcn-adapt -q -j 1 -s 1 --head-width 8 --runs 1 --epochs 2 --label cluster --model model-cmd0.txt \
	--allow-features-command --train-per-class 2 --val 5 --test 5 -o /dev/null -t \
	--save-model adapted-cmd.txt node.gs
printf 'features:\n  stage: command\n  command: "touch %s/pwned; nodefeat -j 1"\n' "$B" >train-cmd.yaml
# ---- issue 37: gcn-adapt --predict follows the adapted model's train.precision ----
sed 's/^train\.precision: .*/train.precision: "half"/; s/^@end .*/@end/' adapted.txt >adapted-prec.txt
# ---- input from the wild (issue 37, 6): a byte-order mark is not in the message ----
printf '\357\273\277a b\n' >bom-named.el
printf '\357\273\277' >bom-only.el
printf '\357\273\2770 1 0.5\n' >bom-weight.el
# ---- linprobe: vectors and classes ----
# node task: one graph, its clusters the classes, nodefeat's features the vectors
nodefeat -q -t node.txt >lp.txt
nodefeat -q node.txt >lp.gs
# the features' rows one short of the graph's nodes
awk '/^@tensor id=0 name=features /{ sub(/rows=30/, "rows=29"); skip = 1; print; next }
	skip == 1 && !/^@/ { skip = 2; next } { print }' lp.txt | sed 's/^@end .*/@end/' >lp-rows.txt
# every node in class 0; one node alone in class 9
awk '/^@/ { on = /name=cluster /; print; next } on { $0 = "0" } { print }' lp.txt |
	sed 's/^@end .*/@end/' >lp-oneclass.txt
awk '/^@/ { on = /name=cluster /; print; next } on && !done { $0 = "9"; done = 1 } { print }' lp.txt |
	sed 's/^@end .*/@end/' >lp-single.txt
# classes as floats; a value that is not a number
sed -e '/name=cluster /s/type=i32/type=f64/' -e 's/^@end .*/@end/' lp.txt >lp-labfloat.txt
awk '/^@tensor id=0 name=features /{ on = 1; print; next } on && !/^@/ { sub(/^[^\t]*/, "nan"); on = 0 }
	{ print }' lp.txt | sed 's/^@end .*/@end/' >lp-nan.txt
# two graphs (a node task takes one)
nodefeat -q -t g.txt >lp-two.txt
# graph task: two graphs with label records after their features; graph 1's
# features missing; a one-row vector per graph
awk '/^@graph id=1/ { print "@label id=0 name=label value=0" } /^@end/ { print "@label id=1 name=label value=1" } { print }' lp-two.txt |
	sed 's/^@end .*/@end/' >lpg.txt
awk '/^@tensor id=1 name=features /{ skip = 1; next } skip && !/^@/ { next } { skip = 0; print }' lpg.txt >lpg-novec.txt
awk '/^@/ && pend != "" { print pend; pend = "" }
	/^@graph/ { id = $2; sub(/id=/, "", id); pend = "@tensor id=" id " name=gvec rows=1 cols=2 type=f64\n" id " 1" }
	{ print }' lpg.txt >lpg-row.txt
# evalf1 --baseline: runs without an item column
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=2 cols=2 type=i32 columns=true,pred classes=2\n0 0\n1 1\n@end\n' >pred-noitem.txt
# linprobe: the graph record after its tensors
awk '/^@graph/ { g = $0; on = 1; next } /^@/ { on = 0 } on { g = g "\n" $0; next }
	/^@end/ { print g; print "@end"; next } { print }' lp.txt >lp-late.txt
# linprobe --task graph: a graph without nodes
printf '##gnnstream 1\n@graph id=0 nodes=2 edges=1\n0 1\n@tensor id=0 name=f rows=2 cols=1 type=f64\n1\n2\n@label id=0 name=label value=0\n@graph id=1 nodes=0 edges=0\n@tensor id=1 name=f rows=0 cols=1 type=f64\n@label id=1 name=label value=1\n@end\n' >lpg-empty.txt


# ---- fuzzing findings (issue 37, section 7) ----
# control bytes (ESC, vertical tab) in a field that a message quotes
printf '0 1\n2 \033[31m\n' >ctl-el.txt
printf '1\n\v2\n' >ctl_graph_labels.txt
printf '1\n1\n' >ctl_graph_indicator.txt
printf '1, 2\n' >ctl_A.txt
# a carriage return in a predictions record's task attribute (evalf1 quotes it)
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=1 cols=2 type=i32 columns=true,pred\n0\t0\n@tensor id=1 name=predictions rows=1 cols=2 type=i32 columns=true,pred task=\rx\n1\t1\n@end\n' >ev-ctl.txt
# a checkpoint tensor whose name holds control bytes (\001, \b)
ed ck.txt ck-ctl.txt 's/^@param name=mix\.rank\.alpha /@param name=mix.rank.alp\x01\x08 /'

# ---- graph-attach: tables onto graphs (issue 40) ----
printf '0 1\n1 2\n2 0\n2 3\n' >ga-g.el
printf 'alice bob\nbob carol\n' >ga-names.el
printf 'node\tclub\n0\tA\n1\tB\n' >ga-club.tsv
printf 'name,club\nalice,a\nNobody,b\n' >ga-nobody.csv
printf 'node\tclub\n0\tA\n1\tB\tC\n' >ga-ragged.tsv
printf 'node\tclub\n0\tA\n0\tB\n' >ga-twice.tsv
printf 'node,x\n0,1.5\n1,abc\n' >ga-nan.csv
printf 'node,x\n0,1.5\n1,inf\n' >ga-inf.csv
printf 'node,club\n0,"A\n' >ga-quote.csv
printf 'node,club\n0,A\n1,\n' >ga-noclu.csv
printf 'node\tnode\n0\t1\n' >ga-dupcol.tsv
printf 'node\tclub\n' >ga-header.tsv
: >ga-empty.tsv
# .npy files: a version 1.0 header of 128 bytes (dict, blanks, newline), then the data
npyh() { printf '\223NUMPY\001\000\166\000%-117s\n' "$1"; }
{ npyh "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }"; printf '\001\000\000\000'; } >ga-trunc.npy
{ npyh "{'descr': '<f4', 'fortran_order': True, 'shape': (4, 1), }"; printf '%016d' 0; } >ga-fortran.npy
{ npyh "{'descr': '>i4', 'fortran_order': False, 'shape': (4,), }"; printf '%016d' 0; } >ga-bigend.npy
{ npyh "{'descr': '<c8', 'fortran_order': False, 'shape': (4,), }"; printf '%032d' 0; } >ga-complex.npy
{ npyh "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2, 1), }"; printf '%016d' 0; } >ga-3d.npy
{ npyh "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }"; printf '%020d' 0; } >ga-extra.npy
{ npyh "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }"; printf '%012d' 0; } >ga-short.npy
{ printf '\223NUMPY\011\000\066\000'; printf '%054d' 0; } >ga-v9.npy
{ npyh "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"; printf '\000\000\300\177%012d' 0; } >ga-nan.npy
# graph-import -f linqs: a header line is skipped with one warning
printf 'node label\n31 Theory\n7 Rule\n5 Theory\n' >gi-hdr.content
printf '7 31\n5 7\n' >gi-hdr.cites
# ---- issue 40: gcn-adapt --task linkpred, evalf1 --auc ----
# three edges: too few for a training, a validation and a test edge
printf '0 1\n1 2\n2 3\n' >lp-few.el
# K6: 15 edges and no non-edge to sample
awk 'BEGIN { for (i = 0; i < 6; i++) for (j = i + 1; j < 6; j++) print i, j }' >lp-k6.el
# predictions of three classes, with a score column
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=3 cols=3 type=f64 columns=true,pred,score\n0 0 1\n1 1 2\n2 2 3\n@end\n' >pred-3class.txt
# binary predictions whose true classes are all 1
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=2 cols=3 type=f64 columns=true,pred,score\n1 1 0.5\n1 0 0.2\n@end\n' >pred-oneclass.txt
# ---- graph-import: the graph formats ----
printf '<?xml version="1.0"?>\n<graphml><graph edgedefault="undirected"><node id="a"/>\n</grap>\n' >broken.graphml
printf 'graph [ node [ id 1 label "a" ] node [ id 2 label "a" ] edge [ source 1 target 2 ] ]\n' >dup-names.gml
printf 'a b\nc\n' >broken.ncol
printf '%%%%MatrixMarket matrix coordinate real general\n3 4 1\n1 2 1\n' >nonsquare.mtx
printf '%%%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n' >array.mtx
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n' >short.mtx
# ---- issue 48: declared sizes, .npy values and headers, names out of place ----
printf 'p edge 3 1\ne 1 9\n' >dimacs-node.max
printf 'p edge 3 5\ne 1 2\n' >dimacs-short.max
printf 'p edge 3 1\ne 1 2\ne 2 3\n' >dimacs-long.max
printf 'c huge\np edge 2000000000 1\ne 1 2\n' >dimacs-huge.max
printf 'p edge 10 2000000000\ne 1 2\n' >dimacs-edges.max
printf '*Vertices 2000000000\n*Edges\n1 2\n' >pajek-huge.net
# uint64 values above 2^63 (and above 2^53: not a double's integer)
{ npyh "{'descr': '<u8', 'fortran_order': False, 'shape': (4,), }"
	printf '\001\0\0\0\0\0\0\0\005\0\0\0\0\0\0\200\001\0\0\0\0\0\0\0\001\0\0\0\0\0\0\0'; } >ga-u64.npy
{ npyh "{'descr': '<i8', 'fortran_order': False, 'shape': (4,), }"
	printf '\001\0\0\0\0\0\0\0\001\0\0\0\0\0\100\0\001\0\0\0\0\0\0\0\001\0\0\0\0\0\0\0'; } >ga-i64.npy
{ npyh "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), "; printf '%016d' 0; } >ga-nobrace.npy
{ npyh "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), 'shape': (2,), }"; printf '%016d' 0; } >ga-twokeys.npy
{ npyh "{'descr': '<i4', 'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"; printf '%016d' 0; } >ga-twodescr.npy
# a names record before its graph, after another graph, of another count
printf '##gnnstream 1\n@names id=0 count=2 bytes=4\na\nb\n@graph id=0 nodes=2 edges=1\n0\t1\n@end records=2\n' >names-first.txt
printf '##gnnstream 1\n@graph id=0 nodes=2 edges=1\n0\t1\n@names id=1 count=2 bytes=4\na\nb\n@end records=2\n' >names-other.txt
printf '##gnnstream 1\n@graph id=0 nodes=3 edges=1\n0\t1\n@names id=0 count=2 bytes=4\na\nb\n@end records=2\n' >names-count.txt
