# embed.test.sh - gcn-embed: the encoder's embeddings of any graph (issue
# 31).  Sourced by run.sh with lib.sh.
T="$TMPD/embed"
mkdir -p "$T"
PY=/usr/bin/python3	# Debian's, with python3-numpy where installed

dcbm-gen -q -s 3 --count 40 --nodes 80..200 | centrality -q >"$T/lab.gs"
cat >"$T/small.yaml" <<'EOC'
model:
  hidden: 16
  rank_hidden: 16
  attention_hidden: 16
train:
  lr: 0.005
  batch_graphs: 8
  validation_graphs: 8
EOC
expect 0 "gcn-train -q -j 2 --config $T/small.yaml --epochs 25 --patience 100 -t -o $T/m.txt $T/lab.gs"
dcbm-gen -q -s 11 --count 3 --nodes 60..90 >"$T/new.gs"

# a record after each graph: rows = nodes, columns = L x d = 48
expect 0 "gcn-embed -j 2 --model $T/m.txt -t -o $T/e.txt $T/new.gs"
check "[ \$(grep -c '^@tensor .*name=embedding rows=[0-9]* cols=48 type=f32 .*embedding=blocks features=paper' $T/e.txt) -eq 3 ] &&
	awk '/^@graph/ { n = \$0; sub(/.* nodes=/, \"\", n); sub(/ .*/, \"\", n) }
	/name=embedding/ { r = \$0; sub(/.* rows=/, \"\", r); sub(/ .*/, \"\", r); if (r != n) bad = 1 }
	END { exit bad }' $T/e.txt" "an embedding record of every graph, a row per node, L x d columns"
check "nodefeat -q $T/e.txt >/dev/null && gcn-embed -q --model $T/m.txt $T/e.txt | gcn-embed -q --model $T/m.txt -t | [ \$(grep -c 'name=embedding' ) -eq 3 ]" \
	"its stream goes on through other filters, and a second pass replaces its records"
expect 0 "gcn-embed -j 2 --model $T/m.txt -o $T/e0.gs $T/new.gs && mv $T/e0.gs $T/e1.gs"
expect 0 "gcn-embed -j 2 --model $T/m.txt -o $T/e0.gs $T/new.gs && mv $T/e0.gs $T/e2.gs"
same "$T/e1.gs" "$T/e2.gs" "the same input, model and threads: the same bytes"
expect 0 "gcn-embed -j 2 --model $T/m.txt --embedding block2 -t $T/new.gs >$T/b2.txt"
check "grep -q 'name=embedding rows=[0-9]* cols=16 .*embedding=block2' $T/b2.txt" "--embedding block2: d columns"
# block 2 is columns 17..32 of blocks
check "awk '/name=embedding/ { e = 1; next } /^@/ { e = 0 } e { for (i = 17; i <= 32; i++) printf \"%s \", \$i; print \"\" }' $T/e.txt | head -n 5 >$T/cols17 &&
	awk '/name=embedding/ { e = 1; next } /^@/ { e = 0 } e { print \$0 \" \" }' $T/b2.txt | tr '\t' ' ' | head -n 5 >$T/b2rows &&
	cmp -s $T/cols17 $T/b2rows" "block2 is the middle block of blocks"
expect 0 "gcn-embed --model $T/m.txt --embedding cluster --tsv $T/new.gs >$T/c.tsv"
check "head -n 1 $T/c.tsv | awk -F '\t' '{ exit !(NF == 19 && \$1 == \"graph\" && \$2 == \"id\" && \$3 == \"node\" && \$4 == \"e0\") }' &&
	awk -F '\t' 'NR > 1 { g[\$1] = 1; if (NF != 19) exit 1 } END { exit length(g) != 3 }' $T/c.tsv" \
	"--tsv: a header (graph, id, node, e0 ...), rows of 3 graphs, 16 columns of the cluster mix"
expect_err 2 "gcn-embed --model $T/m.txt --embedding block4 $T/new.gs" "the model has 3 blocks"
printf '0 1\n1 2\n2 0\n2 3\n' >"$T/e.el"
expect 0 "gcn-embed -q --model $T/m.txt --tsv $T/e.el >$T/el.tsv"
check "[ \$(grep -vc '^graph' $T/el.tsv) -eq 4 ]" "an edge list: a row per node"

# --npy: one float32 array of every graph's rows, np.load opens it
expect 0 "gcn-embed -q --model $T/m.txt --npy $T/e.npy $T/new.gs"
n=$(grep '^@graph' "$T/e.txt" | sed 's/.* nodes=\([0-9]*\) .*/\1/' | awk '{ s += $1 } END { print s }')
check "[ \"\$(head -c 6 $T/e.npy | od -An -c | tr -d ' ')\" = '223NUMPY' ] &&
	head -c 128 $T/e.npy | grep -aq \"'shape': ($n, 48)\" && [ \$(wc -c <$T/e.npy) -eq \$((128 + $n * 48 * 4)) ]" \
	"--npy: the header says ($n, 48) float32, then the data"
if [ -x "$PY" ] && "$PY" -c 'import numpy' 2>/dev/null; then
	check "$PY -c \"
import numpy as np
a = np.load('$T/e.npy')
rows = [l.split('\t') for l in open('$T/e.txt') if l[0] not in '#@']
# the embedding rows of the text form: 48 values a line
t = np.array([[float(x) for x in r] for r in rows if len(r) == 48], dtype=np.float32)
assert a.dtype == np.float32 and a.shape == ($n, 48) and (a == t).all(), (a.shape, t.shape)
\"" "np.load opens --npy, and its rows are the records' rows"
	# the model's own rank decoders on gcn-embed's rank mix of graphs it never
	# saw order their centralities as well as on the validation graphs
	dcbm-gen -q -s 21 --count 8 --nodes 80..200 | centrality -q -t >"$T/unseen.txt"
	expect 0 "gcn-embed -q --model $T/m.txt --embedding rank --npy $T/rank.npy $T/unseen.txt"
	check "$PY $TOP/tests/cli/embed_rank.py $T/m.txt $T/rank.npy $T/unseen.txt" \
		"the rank decoders on the embeddings of unseen graphs: validation's accuracy"
else
	echo "embed.test.sh: no python3 with numpy at $PY; the np.load and rank checks skipped"
fi

# the model's feature stage, and data that does not fit it
mask-edges -q -s 1 "$T/lab.gs" | nodefeat -q -t |
	awk 'BEGIN { OFS = "\t" } /^@end/ { print "@end"; next }
	/^@tensor/ { f = / name=features /
		if (f) { sub(/ cols=4 /, " cols=5 "); sub(/clustering/, "clustering,one") }
		print; next }
	/^@/ { f = 0; print; next } f { print $0, 1; next } { print }' >"$T/five.txt"
expect 0 "gcn-train -q -j 2 --hidden 8 --epochs 1 --batch 8 -o $T/m5.gs $T/five.txt"
expect_err 1 "gcn-embed --model $T/m5.gs $T/new.gs" "and the input has none"
nodefeat -q -t "$T/new.gs" | awk 'BEGIN { OFS = "\t" } /^@end/ { print "@end"; next }
	/^@tensor/ { f = / name=features /
		if (f) { sub(/ cols=4 /, " cols=5 "); sub(/clustering/, "clustering,one") }
		print; next }
	/^@/ { f = 0; print; next } f { print $0, 1; next } { print }' >"$T/new5.txt"
expect 0 "gcn-embed --model $T/m5.gs -t -o $T/e5.txt $T/new5.txt"
check "[ \$(grep -c '^@tensor .*name=embedding .*features=stream' $T/e5.txt) -eq 3 ]" \
	"the input's 'features' tensors, as the model's stage asks"
expect 0 "gcn-embed -o $T/shipped.gs $T/new.gs 2>$T/shipped.err"
check "grep -q '^gcn-embed: model: .*gcn-pretrain.gs (the shipped model; --model to choose another)' $T/shipped.err &&
	[ \$(wc -l <$T/shipped.err) -eq 1 ] &&
	[ \$(gcn-embed -q -t $T/new.gs | grep -c 'name=embedding rows=[0-9]* cols=1536 .* model=shipped') -eq 3 ]" \
	"no --model: the shipped model (d = 512, 3 blocks), and a line says which file"
mkdir -p "$T/elsewhere" && cp "$BIN/gcn-embed" "$T/elsewhere/"
expect_err 2 "$T/elsewhere/gcn-embed $T/new.gs" "the shipped model (models/gcn-pretrain.gs) is not found"
expect_err 2 "gcn-embed --model $T/m.txt --npy - $T/new.gs" "--npy: expected a file"

# --pool: one row per graph, the column-wise mean / max / sum of its node
# rows (checked against the node rows of the same run in awk)
expect 0 "gcn-embed -q --model $T/m.txt --tsv $T/new.gs >$T/nodes.tsv"
expect 0 "gcn-embed -q --model $T/m.txt --pool mean,max,sum --tsv $T/new.gs >$T/pool.tsv"
check "awk -F '\t' 'NR == FNR { if (FNR == 1) next
		g = \$1; n[g]++; for (j = 4; j <= NF; j++) { s[g, j] += \$j; if (n[g] == 1 || \$j > m[g, j]) m[g, j] = \$j }
		D = NF - 3; next }
	FNR == 1 { if (\$1 != \"graph\" || \$2 != \"id\" || NF != 3 * D + 2) exit 1; next }
	{ g = \$1; rows++
	  for (j = 3; j <= D + 2; j++) { k = j + 1; a = s[g, k] / n[g]; b = m[g, k]; c = s[g, k]
		if (abs(\$j - a) > 1e-5 * (1 + abs(a)) || \$(j + D) != b || abs(\$(j + 2 * D) - c) > 1e-5 * (1 + abs(c))) exit 1 } }
	function abs(x) { return x < 0 ? -x : x }
	END { exit rows != 3 }' $T/nodes.tsv $T/pool.tsv" "--pool mean,max,sum: the mean, max and sum of each graph's node rows"
expect 0 "gcn-embed -q --model $T/m.txt --pool mean -t -o $T/pool.txt $T/new.gs"
check "[ \$(grep -c '^@tensor id=[0-9]* name=graph_embedding rows=1 cols=48 .*pool=mean' $T/pool.txt) -eq 3 ] &&
	! grep -q 'name=embedding ' $T/pool.txt" "--pool in a stream: a one-row graph_embedding record per graph, no node rows"
expect 0 "gcn-embed -q --model $T/m.txt --pool max --npy $T/pool.npy $T/new.gs"
check "head -c 128 $T/pool.npy | grep -aq \"'shape': (3, 48)\"" "--pool with --npy: one row per graph"
expect_err 2 "gcn-embed --model $T/m.txt --pool median $T/new.gs" "expected a list of mean, max and sum"
expect_err 2 "gcn-embed --model $T/m.txt --pool mean,mean $T/new.gs" "mean twice"
expect_err 2 "gcn-embed --model $T/m.txt --pool mean, $T/new.gs" "expected a list of mean, max and sum"

# the rows of the embedding records of a text stream
emb_rows() { awk '/^@tensor .*name=embedding /{ e = 1; next } /^@/ { e = 0 } e' "$1"; }
# --no-pretrain: the model's shape with fresh values from -s; the same
# seed, the same bytes; another seed or the trained model, other values
expect 0 "gcn-embed -q --model $T/m.txt --no-pretrain -s 5 -t $T/new.gs >$T/r5a.txt"
expect 0 "gcn-embed -q --model $T/m.txt --no-pretrain -s 5 -t $T/new.gs >$T/r5b.txt"
expect 0 "gcn-embed -q --model $T/m.txt --no-pretrain -s 6 -t $T/new.gs >$T/r6.txt"
same "$T/r5a.txt" "$T/r5b.txt" "--no-pretrain: the same seed gives the same bytes"
emb_rows "$T/r5a.txt" >"$T/r5a.rows"
emb_rows "$T/e.txt" >"$T/e.rows"
check "grep -q 'name=embedding rows=[0-9]* cols=48 .*init=random init_seed=5' $T/r5a.txt &&
	! cmp -s $T/r5a.txt $T/r6.txt && ! cmp -s $T/r5a.rows $T/e.rows" \
	"--no-pretrain: the model's shape, values from the seed, not the trained ones"

# --precision bf16: the encoder's products on bf16 operands.  Each block of
# the shipped model's Cora embeddings within 2^-6 of fp32's (relative
# Frobenius norm: u = 2^-8 a product, magnified about 4-fold by the
# per-graph normalisation, tests/unit/test_bf16.c; measured 0.006 to 0.009)
# and not equal to them; fp32 stays the default
# near A B BOUND: every block of Cora's tables A and B (three of 512
# columns) within BOUND of A's (relative Frobenius norm), and not equal
near() {
	check "paste $1 $2 | awk -F '\t' 'NR > 1 {
		for (i = 4; i <= 1539; i++) { b = int((i - 4) / 512); x = \$i; y = \$(i + 1539)
			e[b] += (x - y) * (x - y); s[b] += x * x } }
		END { for (b = 0; b < 3; b++) { r = sqrt(e[b] / s[b]); if (!(r > 0 && r <= $3)) exit 1 } }'" "$4"
}
if gcn-embed -q --precision bf16 --tsv "$TOP/data/cora.gs" >"$T/c16.tsv" 2>"$T/c16.err"; then
	expect 0 "gcn-embed -q --tsv $TOP/data/cora.gs >$T/c32.tsv"
	near "$T/c32.tsv" "$T/c16.tsv" "1 / 64" "--precision bf16: every block within 2^-6 of fp32's, and not equal"
	check "gcn-embed -q -t --precision bf16 $T/new.gs | grep -q 'name=embedding .* precision=bf16' &&
		gcn-embed -q -t $T/new.gs | grep -q 'name=embedding .* precision=fp32'" \
		"the precision used is the tensor's attribute; fp32 by default"
else
	check "grep -q 'bf16 is not available' $T/c16.err" "--precision bf16 where it is not available: $(cat "$T/c16.err")"
	skip "embed.test.sh: --precision bf16 against fp32: $(sed 's/^gcn-embed: --precision bf16: //' "$T/c16.err")"
fi
expect_err 2 "gcn-embed --precision half $T/new.gs" "--precision: 'half': expected fp32 or bf16"

# --store bf16 (issue 49): the activations kept in bf16 over row blocks.
# Each block of the shipped model's Cora embeddings within 2^-8 of fp32's
# (relative Frobenius norm; measured 0.0012 to 0.0014) and not equal;
# --store file (the block's input in a scratch file in TMPDIR) the same
# bytes as bf16; records say the store, fp32's do not
[ -s "$T/c32.tsv" ] || expect 0 "gcn-embed -q --tsv $TOP/data/cora.gs >$T/c32.tsv"
expect 0 "gcn-embed -q --store bf16 --tsv $TOP/data/cora.gs >$T/cb.tsv"
near "$T/c32.tsv" "$T/cb.tsv" "1 / 256" "--store bf16: every block within 2^-8 of fp32's, and not equal"
expect 0 "gcn-embed -q --store bf16 --npy $T/cb.npy $TOP/data/cora.gs"
expect 0 "gcn-embed -q --store file --npy $T/cf.npy $TOP/data/cora.gs"
same "$T/cb.npy" "$T/cf.npy" "--store file: the same bytes as --store bf16"
check "[ -z \"\$(ls $TMPDIR | grep gcn-embed-store)\" ]" "--store file leaves no scratch file"
tmp=$TMPDIR TMPDIR=$T/none
expect_err 1 "gcn-embed -q --store file --npy $T/none.npy $TOP/data/cora.gs" \
	"gcn-embed: $T/none: a scratch file for --store file (TMPDIR): No such file or directory"
TMPDIR=$tmp
check "[ ! -e $T/none.npy ]" "no output when the scratch file cannot be made"
check "gcn-embed -q -t --model $T/m.txt --store bf16 $T/new.gs | grep -q 'name=embedding .* store=bf16\$' &&
	! grep -q store= $T/e.txt" "--store bf16: the records' attribute store; fp32's have none"
expect_err 2 "gcn-embed --store disk $T/new.gs" "--store: 'disk': expected fp32, bf16, file or auto"
# the store's rows reach every output: pooled rows and a task's mix near
# fp32's (relative Frobenius norm within 2^-6 over the table's values)
close() {
	check "paste $1 $2 | awk -F '\t' 'NR > 1 { h = NF / 2; for (i = $3; i <= h; i++) {
		x = \$i; y = \$(i + h); e += (x - y) * (x - y); s += x * x } }
		END { r = sqrt(e / s); exit !(NR > 1 && r > 0 && r <= 1 / 64) }'" "$4"
}
for s in fp32 bf16; do
	expect 0 "gcn-embed -q --model $T/m.txt --store $s --pool mean,max --tsv $T/new.gs >$T/p$s.tsv"
	expect 0 "gcn-embed -q --model $T/m.txt --store $s --embedding cluster --tsv $T/new.gs >$T/x$s.tsv"
done
close "$T/pfp32.tsv" "$T/pbf16.tsv" 3 "--store bf16 --pool mean,max: near fp32's rows"
close "$T/xfp32.tsv" "$T/xbf16.tsv" 4 "--store bf16 --embedding cluster: near fp32's mix"

# ---- many graphs (issue 40): where each graph's rows are, in every output ----
# two edge lists are both graph 0: the table's graph column is each one's
# place in the output, its id column the id (0 twice), node counts from 0
printf '0 1\n1 2\n2 0\n2 3\n3 4\n' >"$T/f.el"
expect 0 "gcn-embed -q --model $T/m.txt --tsv $T/e.el $T/f.el >$T/two.tsv"
check "awk -F '\t' 'NR > 1 { n[\$1 \" \" \$2]++; if (\$3 != n[\$1 \" \" \$2] - 1) exit 1 }
	END { exit !(length(n) == 2 && n[\"0 0\"] == 4 && n[\"1 0\"] == 5) }' $T/two.tsv" \
	"--tsv of two edge lists (both id 0): graph 0 has its 4 rows, graph 1 its 5"
# in a stream each record follows its graph, whatever the ids
expect 0 "gcn-embed -q --model $T/m.txt -t $T/e.el $T/f.el >$T/two.txt"
check "[ \"\$(awk '/^@graph/ { n = \$0; sub(/.* nodes=/, \"\", n); sub(/ .*/, \"\", n); printf \"g%s \", n }
	/^@tensor .*name=embedding/ { r = \$0; sub(/.* rows=/, \"\", r); sub(/ .*/, \"\", r); printf \"e%s \", r }' $T/two.txt)\" = 'g4 e4 g5 e5 ' ] &&
	[ \$(grep -c '^@tensor id=0 name=embedding' $T/two.txt) -eq 2 ]" \
	"a stream of two edge lists: each graph 0 followed by its own embedding"
# --offsets: an int64 .npy of graphs + 1 values, graph g's rows are
# offsets[g] .. offsets[g+1]-1; the rows' file is the same bytes as without
expect 0 "gcn-embed -q --model $T/m.txt --npy $T/r.npy --offsets $T/off.npy $T/new.gs"
same "$T/e.npy" "$T/r.npy" "--offsets leaves the .npy file of rows as it was"
want=$(grep '^@graph' "$T/e.txt" | sed 's/.* nodes=\([0-9]*\) .*/\1/' | awk 'BEGIN { printf "0" } { s += $1; printf " %d", s }')
check "head -c 128 $T/off.npy | grep -aq \"{'descr': '<i8', 'fortran_order': False, 'shape': (4,), }\" &&
	[ \"\$(od -An -t d8 -j 128 -v $T/off.npy | tr -s ' \n' '  ' | sed 's/^ //; s/ \$//')\" = '$want' ]" \
	"--offsets: (4,) int64, 0 then the running sum of the graphs' nodes ($want)"
expect 0 "gcn-embed -q --model $T/m.txt --pool --npy $T/gp.npy --offsets $T/gpoff.npy $T/new.gs"
check "[ \"\$(od -An -t d8 -j 128 -v $T/gpoff.npy | tr -s ' \n' '  ' | sed 's/^ //; s/ \$//')\" = '0 1 2 3' ]" \
	"--offsets with --pool: a row per graph, 0 1 2 3"
# --names beside the .npy rows: a line per row; a graph without a names
# record is named by its node numbers
expect 0 "gcn-embed -q --model $T/m.txt --npy $T/two.npy --offsets $T/twooff.npy --names $T/two.names $T/e.el $T/f.el"
check "[ \"\$(tr '\n' ' ' <$T/two.names)\" = '0 1 2 3 0 1 2 3 4 ' ]" "--names: a line per row, node numbers where a graph has no names"
if [ -x "$PY" ] && "$PY" -c 'import numpy' 2>/dev/null; then
	check "$PY -c \"
import numpy as np
a, off = np.load('$T/two.npy'), np.load('$T/twooff.npy')
t = np.loadtxt('$T/two.tsv', delimiter='\t', skiprows=1, dtype=np.float64)
assert off.dtype == np.int64 and off.tolist() == [0, 4, 9], off
for g, rows in enumerate(np.split(a, off[1:-1])):
    assert (rows == t[t[:, 0] == g][:, 3:].astype(np.float32)).all(), g
\"" "np.split(rows, offsets[1:-1]) gives each graph's rows, the table's of that graph"
fi
# --pool alone is mean, gcn-adapt's graph readout; a word of lowercase
# letters after it is its list, anything else an input
expect 0 "gcn-embed -q --model $T/m.txt --pool mean --tsv $T/new.gs >$T/pmean.tsv"
expect 0 "gcn-embed -q --model $T/m.txt --pool --tsv $T/new.gs >$T/pbare.tsv"
expect 0 "gcn-embed -q --model $T/m.txt --tsv --pool <$T/new.gs >$T/pbare2.tsv"
expect 0 "gcn-embed -q --model $T/m.txt --pool=max --tsv $T/new.gs >$T/pmax.tsv"
expect 0 "gcn-embed -q --model $T/m.txt --pool max --tsv $T/new.gs >$T/pmax2.tsv"
check "cmp -s $T/pmean.tsv $T/pbare.tsv && cmp -s $T/pmean.tsv $T/pbare2.tsv && cmp -s $T/pmax.tsv $T/pmax2.tsv &&
	! cmp -s $T/pmean.tsv $T/pmax.tsv && [ \$(wc -l <$T/pmean.tsv) -eq 4 ]" \
	"--pool alone is --pool mean; --pool=max is --pool max"
expect_err 2 "gcn-embed --model $T/m.txt --pool avg $T/new.gs" "--pool: 'avg': expected a list of mean, max and sum"
# the files beside --npy: with --npy only, files of their own, checked
# before any work
expect_err 2 "gcn-embed --model $T/m.txt --offsets $T/o.npy $T/new.gs" "--offsets goes with --npy"
expect_err 2 "gcn-embed --model $T/m.txt --tsv --names $T/o.txt $T/new.gs" "--names goes with --npy"
expect_err 2 "gcn-embed --model $T/m.txt --npy $T/x.npy --names $T/x.txt --pool $T/new.gs" \
	"--names lists the nodes' names, and with --pool the rows are graphs"
expect_err 2 "gcn-embed --model $T/m.txt --npy $T/x.npy --offsets $T/x.npy $T/new.gs" \
	"--offsets $T/x.npy: the same file as --npy $T/x.npy"
expect_err 2 "gcn-embed --model $T/m.txt --npy $T/x.npy --names $T/new.gs $T/new.gs" \
	"--names $T/new.gs: the same file as the input $T/new.gs, which it would replace"
expect_err 2 "gcn-embed --model $T/m.txt --npy $T/x.npy --offsets $T/m.txt $T/new.gs" \
	"the same file as --model"
expect_err 2 "gcn-embed --model $T/m.txt --npy $T/x.npy --offsets - $T/new.gs" "--offsets: expected a file"
expect_err 1 "gcn-embed --model $T/m.txt --npy $T/x.npy --offsets $T/nodir/o.npy $T/new.gs" "nodir/o.npy"
check "[ ! -e $T/x.npy ]" "a failed run leaves no .npy file"

# ---- node names (issue 40): a graph with a names record gets a name
# column after node, and --names writes them beside the .npy rows ----
printf 'Napoleon Myriel\nMlle.Baptistine Myriel\nMme.Magloire Myriel\nMme.Magloire Mlle.Baptistine\nCountessDeLo Myriel\n' >"$T/les.el"
expect 0 "gcn-embed -q --model $T/m.txt --tsv $T/les.el $T/e.el >$T/les.tsv"
check "head -n 1 $T/les.tsv | cut -f 1-5 | grep -qx 'graph	id	node	name	e0' &&
	[ \"\$(awk -F '\t' 'NR > 1 { printf \"%s:%s:%s \", \$1, \$3, \$4 }' $T/les.tsv)\" = \\
	'0:0:Napoleon 0:1:Myriel 0:2:Mlle.Baptistine 0:3:Mme.Magloire 0:4:CountessDeLo 1:0:0 1:1:1 1:2:2 1:3:3 ' ] &&
	awk -F '\t' '{ if (NF != 52) exit 1 }' $T/les.tsv" \
	"--tsv: the names in a column after node (48 values after it); a graph without names: its numbers"
expect 0 "gcn-embed -q --model $T/m.txt --npy $T/les.npy --names $T/les.names $T/e.el $T/les.el"
check "[ \"\$(tr '\n' ' ' <$T/les.names)\" = '0 1 2 3 Napoleon Myriel Mlle.Baptistine Mme.Magloire CountessDeLo ' ]" \
	"--names: a line per row, the graph's names where it has them"
expect 0 "gcn-embed --model $T/m.txt --tsv $T/e.el $T/les.el >$T/les2.tsv 2>$T/les2.err"
check "head -n 1 $T/les2.tsv | cut -f 1-4 | grep -qx 'graph	id	node	e0' &&
	grep -qx 'gcn-embed: .*les.el: graph 0 has node names and the first graph had none: the table has no name column (its header is the first graph.s)' $T/les2.err" \
	"names after a first graph without them: no name column, and a line says so"
expect 0 "gcn-embed --model $T/m.txt --npy $T/les.npy $T/les.el 2>$T/les3.err"
check "grep -qx 'gcn-embed: .*les.el: graph 0 has node names; --names FILE writes them beside the .npy rows' $T/les3.err" \
	"--npy without --names of a graph with names: a line says where they would go"
check "gcn-embed -q --model $T/m.txt -t $T/les.el | awk '/^@graph/ { g = NR } /^@names id=0 count=5/ { n = NR } /^@tensor id=0 name=embedding rows=5/ { e = NR }
	END { exit !(g < n && n < e) }'" "a stream: the graph, its names, then its embedding"

# ---- memory (issue 49): a graph that cannot fit is refused before its
# features are computed, in one line with the figure and the options that
# would fit; those then run (GNNPIPE_MEMORY stands in for the machine's) ----
printf '999999 0\n' >"$T/wide.el"		# 10^6 nodes, one edge
# what each store needs for one block to a .npy file (d = 16), from the
# refusal's figure: fp32 8 bytes a node and column, bf16 4, file 2
need() {
	GNNPIPE_MEMORY=1K gcn-embed --model $T/m.txt --store "$1" $2 $T/wide.el 2>&1 |
		sed -n 's/.* needs about \([0-9]*\) MiB, this process.*/\1/p'
}
b3="--embedding block3 --npy $T/wide.npy"
n32=$(need fp32 "$b3") n16=$(need bf16 "$b3") nfi=$(need file "$b3")
check "[ -n '$n32' ] && [ -n '$n16' ] && [ -n '$nfi' ] && [ $n32 -ge $((n16 + 55)) ] && [ $n16 -ge $((nfi + 25)) ]" \
	"the estimates fall with the store: fp32 $n32, bf16 $n16, file $nfi MiB"
# a tensor record of three blocks (192 MB of floats) fits in none at
# file's figure + 100 MiB; the last block to a .npy file does, and auto
# takes the store that fits: file there, bf16 halfway between bf16 and
# fp32, fp32 where fp32 fits (no line)
GNNPIPE_MEMORY=$((nfi + 100))M; export GNNPIPE_MEMORY
expect_err 1 "gcn-embed --model $T/m.txt -o $T/wide.gs $T/wide.el" \
	"gcn-embed: $T/wide.el: line 1: graph 0 (1000000 nodes, 1 edges) needs about "
check "grep -q 'MiB, this process can have $((nfi + 100)) MiB (GNNPIPE_MEMORY); --embedding block3 --npy FILE needs about [0-9]* MiB; GNNPIPE_MEMORY=off tries anyway\$' $LIB_ERR" \
	"what it needs, what it can have, the options that fit: $(cat "$LIB_ERR")"
check "[ ! -e $T/wide.gs ]" "no output after the refusal"
GNNPIPE_MEMORY=$(((nfi + n16) / 2))M
expect 0 "gcn-embed --model $T/m.txt $b3 $T/wide.el 2>$T/auto.err"
check "[ \$(wc -c <$T/wide.npy) -eq \$((128 + 1000000 * 16 * 4)) ] &&
	grep -q '^gcn-embed: $T/wide.el: line 1: graph 0 (1000000 nodes): with fp32 arrays it needs about [0-9]* MiB, this process can have $(((nfi + n16) / 2)) MiB (GNNPIPE_MEMORY): the activations go in bf16, the block.s input in a scratch file (--store file; gcn-embed(1))\$' $T/auto.err" \
	"auto: the store that fits, file, said in one line: $(cat "$T/auto.err")"
mv "$T/wide.npy" "$T/wide.file.npy"
GNNPIPE_MEMORY=$(((n16 + n32) / 2))M
expect 0 "gcn-embed --model $T/m.txt $b3 $T/wide.el 2>$T/auto.err"
check "grep -q 'the activations go in bf16 (--store bf16; gcn-embed(1))\$' $T/auto.err" "auto: bf16 where it fits and fp32 does not"
same "$T/wide.npy" "$T/wide.file.npy" "10^6 rows: out of core the same bytes as in memory"
# (the figures move by a MiB or so from run to run: the process's own peak)
expect_err 1 "gcn-embed --model $T/m.txt --store fp32 $b3 $T/wide.el" "(GNNPIPE_MEMORY); --store bf16 needs about "
GNNPIPE_MEMORY=$((nfi - 10))M
expect_err 1 "gcn-embed --model $T/m.txt $b3 $T/wide.el" "MiB, this process can have $((nfi - 10)) MiB (GNNPIPE_MEMORY); GNNPIPE_MEMORY=off tries anyway"
GNNPIPE_MEMORY=$((n32 + 20))M
expect 0 "gcn-embed --model $T/m.txt $b3 $T/wide.el 2>$T/auto.err"
check "! grep -q 'activations go' $T/auto.err" "auto: fp32 where it fits, and nothing said"
unset GNNPIPE_MEMORY
# the estimates are what the run takes: peak RSS within 25% of each
# store's figure (not under ASan, whose shadow memory doubles it)
if ! sanitized && [ -x /usr/bin/time ]; then
	for s in fp32 bf16 file; do
		est=$(need $s "$b3")
		/usr/bin/time -f '%M' -o "$T/rss.$s" gcn-embed -q --model $T/m.txt --store $s $b3 $T/wide.el
		rss=$(tail -n 1 "$T/rss.$s")
		check "awk -v e='$est' -v r='$rss' 'BEGIN { r /= 1024; exit !(e > 0 && r >= 0.75 * e && r <= 1.25 * e) }'" \
			"--store $s: 10^6 nodes: peak RSS $rss KB against the estimate $est MiB"
	done
fi
# a stream's graph is refused at its header: this one's edges are cut
# short, which reading them would find
GNNPIPE_MEMORY=$((nfi + 100))M; export GNNPIPE_MEMORY
printf '##gnnstream 1\n@graph id=0 nodes=1000000 edges=10000000\n0\t1\n' >"$T/cut.txt"
expect_err 1 "gcn-embed --model $T/m.txt $T/cut.txt" \
	"gcn-embed: $T/cut.txt: record 1: graph 0 (1000000 nodes, 10000000 edges) needs about "
GNNPIPE_MEMORY=off
expect_err 1 "gcn-embed --model $T/m.txt $T/cut.txt" "truncated stream"
unset GNNPIPE_MEMORY
