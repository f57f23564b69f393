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
check "head -n 1 $T/c.tsv | awk -F '\t' '{ exit !(NF == 17 && \$1 == \"node\") }' && grep -c '^# graph' $T/c.tsv | grep -qx 3" \
	"--tsv: a header, a line per graph, 16 columns of the cluster mix"
expect_err 2 "gcn-embed --model $T/m.txt --embedding block4 $T/new.gs" "the model has 3 blocks"
printf '0 1\n1 2\n2 0\n2 3\n' >"$T/e.el"
expect 0 "gcn-embed -q --model $T/m.txt --tsv $T/e.el >$T/el.tsv"
check "[ \$(grep -vc '^#\|^node' $T/el.tsv) -eq 4 ]" "an edge list: a row per node"

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
	[ \$(gcn-embed -q -t $T/new.gs | grep -c 'name=embedding rows=[0-9]* cols=1536 .* model=shipped') -eq 3 ]" \
	"no --model: the shipped model (d = 512, 3 blocks), and a line says which file"
mkdir -p "$T/elsewhere" && cp "$BIN/gcn-embed" "$T/elsewhere/"
expect_err 2 "$T/elsewhere/gcn-embed $T/new.gs" "the shipped model (models/gcn-pretrain.gs) is not found"
expect_err 2 "gcn-embed --model $T/m.txt --npy - $T/new.gs" "--npy: expected a file"

# --pool: one row per graph, the column-wise mean / max / sum of its node
# rows (checked against the node rows of the same run in awk)
expect 0 "gcn-embed -q --model $T/m.txt --tsv $T/new.gs >$T/nodes.tsv"
expect 0 "gcn-embed -q --model $T/m.txt --pool mean,max,sum --tsv $T/new.gs >$T/pool.tsv"
check "awk -F '\t' 'NR == FNR { if (\$1 ~ /^# graph/) { g = \$1; sub(/# graph /, \"\", g); n[g] = 0; next }
		if (\$1 == \"node\") next
		n[g]++; for (j = 2; j <= NF; j++) { s[g, j] += \$j; if (n[g] == 1 || \$j > m[g, j]) m[g, j] = \$j }
		D = NF - 1; next }
	FNR == 1 { if (\$1 != \"graph\" || NF != 3 * D + 1) exit 1; next }
	{ g = \$1; rows++
	  for (j = 2; j <= D + 1; j++) { a = s[g, j] / n[g]; b = m[g, j]; c = s[g, j]
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
if gcn-embed -q --precision bf16 --tsv "$TOP/data/cora.gs" >"$T/c16.tsv" 2>"$T/c16.err"; then
	expect 0 "gcn-embed -q --tsv $TOP/data/cora.gs >$T/c32.tsv"
	check "paste $T/c32.tsv $T/c16.tsv | awk -F '\t' 'NR > 1 && \$1 !~ /^#/ {
		for (i = 2; i <= 1537; i++) { b = int((i - 2) / 512); x = \$i; y = \$(i + 1537)
			e[b] += (x - y) * (x - y); s[b] += x * x } }
		END { for (b = 0; b < 3; b++) { r = sqrt(e[b] / s[b]); if (!(r > 0 && r <= 1 / 64)) exit 1 } }'" \
		"--precision bf16: every block within 2^-6 of fp32's, and not equal"
	check "gcn-embed -q -t --precision bf16 $T/new.gs | grep -q 'name=embedding .* precision=bf16' &&
		gcn-embed -q -t $T/new.gs | grep -q 'name=embedding .* precision=fp32'" \
		"the precision used is the tensor's attribute; fp32 by default"
else
	check "grep -q 'bf16 is not available' $T/c16.err" "--precision bf16 where it is not available: $(cat "$T/c16.err")"
	skip "embed.test.sh: --precision bf16 against fp32: $(sed 's/^gcn-embed: --precision bf16: //' "$T/c16.err")"
fi
expect_err 2 "gcn-embed --precision half $T/new.gs" "--precision: 'half': expected fp32 or bf16"
