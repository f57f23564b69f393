# python.test.sh - the Python end of the pipes (issue 40): python/gnnstream.py
# reads what the programs write (every form, several segments, every record
# kind) and writes what they read; bad input raises one StreamError line,
# the programs' own; python/gnnpipe_torch.py recomputes gcn-embed's rows
# from gcn-export's file of the shipped model.  Debian's python3 with
# python3-numpy (and python3-torch for the encoder); without them each part
# says it is skipped, in one SKIP line.  The checks are
# tests/cli/python_check.py's.  Sourced by run.sh with lib.sh.
T="$TMPD/python"
mkdir -p "$T"
PY=/usr/bin/python3	# Debian's, where python3-numpy and python3-torch install
CHK="$TOP/tests/cli/python_check.py"
GT="$TOP/python/gnnpipe_torch.py"
export PYTHONPATH="$TOP/python"
# py DESCRIPTION COMMAND...: a Python check, its output in the failure
py() { run_ok "$@"; }
# py_fails DESCRIPTION COMMAND...: a check that must fail (the checks can)
py_fails() {
	_d=$1
	shift
	if _o=$("$@" 2>&1); then lib_bad "$_d: passed: $(echo "$_o" | tail -n 1)"
	elif echo "$_o" | grep -q '^python_check: '; then lib_ok
	else lib_bad "$_d: failed without the checker's line: $(echo "$_o" | tail -n 3)"; fi
}
# $NORM FILE: a text stream without its segment lines and its writer's own
# pg record, that record's id replaced by X (the command lines of two runs
# that write the same records in two forms differ, and so their ids)
cat >"$T/norm.awk" <<'EOA'
FNR == 1 && /^##gnnstream/ { next }
/^@end/ { next }
/^@pg / && !id { id = $2; sub(/^id=/, "", id); next }
{ if (id) gsub(id, "X"); print }
EOA
NORM="awk -f $T/norm.awk"

if [ ! -x "$PY" ] || ! "$PY" -c 'import numpy' 2>/dev/null; then
	echo "SKIP: python.test.sh: no $PY with numpy (Debian: python3-numpy): python/gnnstream.py and python/gnnpipe_torch.py were not tested"
	return 0 2>/dev/null || exit 0
fi

# ---- reading what the programs write ----
# one pipeline's records in the four forms, and its text read back by
# gnnstream.py and written in the text form again: the programs' bytes
P="dcbm-gen -q --count 3 --nodes 20..40 -s 1 | centrality -q | mask-edges -q -s 2 | nodefeat -q"
sh -c "$P -t" >"$T/f.txt"
sh -c "$P" >"$T/f.gs"
sh -c "$P -l 0" >"$T/f0.gs"
sh -c "$P -t -l 3" >"$T/ft.gz"
$NORM "$T/f.txt" >"$T/f.norm"
check "grep -q '^@pairs ' $T/f.norm && grep -q 'type=i32' $T/f.norm && grep -q 'type=f64' $T/f.norm" \
	"the pipeline writes graphs, pairs and tensors of two types"
for f in f.txt f.gs f0.gs ft.gz; do
	py "gnnstream.py reads $f" "$PY" "$CHK" dump "$T/$f" "$T/$f.dump"
	check "$NORM $T/$f.dump | cmp -s - $T/f.norm" "$f read by gnnstream.py: the records of the programs' text form, byte for byte"
done
check "sh -c '$P' | $PY -c 'import gnnstream; print(len(gnnstream.read_all(\"-\")))' | grep -qx \$(grep -c '^@' $T/f.txt | awk '{ print \$1 - 1 }') &&
	$PY -c 'import gnnstream, sys; w = gnnstream.Writer(\"-\", text=True); w.label(0, \"x\", 1); w.close()' | nodefeat -q -t | grep -q '^@label id=0 name=x value=1 '" \
	"gnnstream.py reads standard input (\"-\") and writes standard output"
# a segment past 4 MiB: gzip members compressed side by side (pgz.h),
# each read by zlib, all by gzip(1), and by gnnstream.py and the programs
# as the plain bytes gzip(1) gives
dcbm-gen -q -s 1 --count 1 --nodes 50000 --mean-degree 30 -o "$T/big.gs"
py "a stream past 4 MiB: several gzip members, each whole" "$PY" "$CHK" members "$T/big.gs" 2
expect 0 "gzip -dc $T/big.gs >$T/big0.gs"
expect 0 "nodefeat -q -o $T/big.nf.gs $T/big.gs"
py "gnnstream.py reads a stream of several gzip members" "$PY" "$CHK" dump "$T/big.gs" "$T/big.dump"
py "gnnstream.py reads it plain" "$PY" "$CHK" dump "$T/big0.gs" "$T/big0.dump"
same "$T/big.dump" "$T/big0.dump" "several gzip members: the records of the plain bytes"
# several segments, plain, gzip, text, one after another
cat "$T/f0.gs" "$T/f.gs" "$T/f.txt" "$T/ft.gz" "$T/f0.gs" >"$T/cat.gs"
expect 0 "nodefeat -q -o /dev/null $T/cat.gs"
py "gnnstream.py reads five segments" "$PY" "$CHK" dump "$T/cat.gs" "$T/cat.dump"
check "cat $T/f0.gs.dump $T/f.gs.dump $T/f.txt.dump $T/ft.gz.dump $T/f0.gs.dump | cmp -s - $T/cat.dump" \
	"five segments of four forms: each segment's records, in order"
# graph-import's records: edge labels (i32), graph labels, i64 and f32 tensors
D="$TOP/tests/cli/data"
for a in "tu $D/import-tu" "movielens $D/import-ml100k" "linqs $D/import-tiny.content $D/import-tiny.cites"; do
	n=${a%% *}
	graph-import -q -f $a -t >"$T/i-$n.txt"
	graph-import -q -f $a >"$T/i-$n.gs"
	py "gnnstream.py reads graph-import -f $n" "$PY" "$CHK" dump "$T/i-$n.gs" "$T/i-$n.dump"
	check "$NORM $T/i-$n.txt >$T/i-$n.norm && $NORM $T/i-$n.dump | cmp -s - $T/i-$n.norm" \
		"graph-import -f $n read by gnnstream.py: the records of its text form"
done
check "grep -q '^@label ' $T/i-tu.norm && grep -q 'labels=i32' $T/i-tu.norm && grep -q 'type=i64' $T/i-movielens.norm &&
	grep -q 'type=f32' $T/i-linqs.norm" "graph-import wrote label records, edge labels, i64 and f32 tensors"
# a names record: an edge list of named nodes, read by nodefeat
printf 'Napoleon Myriel\nMlle.Baptistine Myriel\n# a comment\nCosette Mme.Magloire\ncaf\303\251 7\n' >"$T/named.el"
nodefeat -q -t "$T/named.el" >"$T/named.txt"
nodefeat -q "$T/named.el" >"$T/named.gs"
py "gnnstream.py reads a names record" "$PY" "$CHK" dump "$T/named.gs" "$T/named.dump"
check "$NORM $T/named.txt >$T/named.norm && grep -q '^@names id=0 count=7 bytes=' $T/named.norm &&
	$NORM $T/named.dump | cmp -s - $T/named.norm" "names read by gnnstream.py: the records of the text form"
check "$PY -c \"import gnnstream as g; n = next(g.graphs('$T/named.gs')).names
assert n == ['Napoleon', 'Myriel', 'Mlle.Baptistine', 'Cosette', 'Mme.Magloire', 'caf\\u00e9', '7'], n\"" \
	"Graph.names: node i's name, as str"
# gcn-train's model record (config text and parameters) in both forms
TR="-q -j 1 -s 1 --hidden 8 --epochs 1 --batch 2 --validation 1 --precision fp32"	# two runs, one model
dcbm-gen -q --count 6 -s 1 --nodes 30..40 | centrality -q >"$T/tr.gs"
expect 0 "gcn-train $TR -t -o $T/m.txt $T/tr.gs"
expect 0 "gcn-train $TR -o $T/m.gs $T/tr.gs"
py "gnnstream.py reads gcn-train's model" "$PY" "$CHK" dump "$T/m.gs" "$T/m.dump"
check "$NORM $T/m.txt >$T/m.norm && grep -q '^@param name=block1.W1 rows=8 cols=8 type=f32' $T/m.norm &&
	$NORM $T/m.dump | cmp -s - $T/m.norm" "gcn-train's model read by gnnstream.py: the records of its text form"
# the shipped model against gcn-export's file of it
expect 0 "gcn-export -q -o $T/ship.st $TOP/models/gcn-pretrain.gs"
py "the shipped model read by gnnstream.py is gcn-export's" "$PY" "$CHK" model "$TOP/models/gcn-pretrain.gs" "$T/ship.st"

# ---- writing what the programs read ----
# (nodefeat replaces the features of its input: the original through it)
nodefeat -q -t "$T/f.gs" | $NORM >"$T/ff.norm"
for o in "" "level=0" "text" "text level=1"; do
	n=$(echo "w $o" | tr ' =' '-_')
	py "gnnstream.py writes ($o)" "$PY" "$CHK" rewrite "$T/f.gs" "$T/$n.gs" $o
	check "nodefeat -q -t $T/$n.gs | $NORM | grep -v '^@pg id=[0-9a-f]* prog=rewrite ' | cmp -s - $T/ff.norm" \
		"a stream gnnstream.py wrote (${o:-binary, gzip}): nodefeat reads the records of the original"
done
check "[ \"\$(head -c 2 $T/w-.gs | od -An -tx1 | tr -d ' ')\" = 1f8b ] && [ \"\$(head -c 4 $T/w-level_0.gs | tail -c 3)\" = GNS ] &&
	head -n 1 $T/w-text.gs | grep -qx '##gnnstream 1' && [ \"\$(head -c 2 $T/w-text-level_1.gs | od -An -tx1 | tr -d ' ')\" = 1f8b ]" \
	"binary gzip by default; level 0 plain; text plain; text at level 1 gzip"
# graphs built in Python from plain lines: gcn-embed reads them as the
# programs' own (its rows the same bytes)
dcbm-gen -q --count 3 -s 5 --nodes 50..90 | nodefeat -q -t >"$T/g.txt"
py "a stream built by Writer.graph and Writer.tensor" "$PY" "$CHK" rebuild "$T/g.txt" "$T/g.py.gs"
expect 0 "gcn-embed -q -j 1 --features stream --model $T/m.gs --npy $T/g.c.npy $T/g.txt"
expect 0 "gcn-embed -q -j 1 --features stream --model $T/m.gs --npy $T/g.py.npy $T/g.py.gs"
same "$T/g.c.npy" "$T/g.py.npy" "gcn-embed's rows of the graphs and features Python wrote = those of the programs' stream"
# names written by Python: nodefeat prints them beside its rows
printf 'node:name|# graph 3|0:caf\303\251|1:@at|2:a b|3:7|' >"$T/pyn.want"
check "$PY -c \"import gnnstream as g
for f, t in (('$T/pyn.gs', False), ('$T/pyn.txt', True)):
    with g.Writer(f, text=t) as w:
        w.graph(3, 4, [0, 1, 2], [1, 2, 3])
        w.names(3, ['caf\\u00e9', '@at', 'a b', '7'])
\" && nodefeat -q --tsv $T/pyn.gs >$T/pyn.tsv && nodefeat -q --tsv $T/pyn.txt | cmp -s - $T/pyn.tsv &&
	cut -f 1,2 $T/pyn.tsv | tr '\t\n' ':|' | cmp -s - $T/pyn.want" \
	"names written by gnnstream.py (binary and text): nodefeat --tsv prints them"
py "Writer refuses what the programs would" "$PY" "$CHK" writer "$T"

# ---- bad input: one StreamError line, the programs' own ----
# bad: the stream's bytes changed; the message is nodefeat's
bad() {	# NAME: $T/NAME made by the caller; nodefeat must fail on it too
	nodefeat -q -o /dev/null "$T/$1" 2>"$T/$1.err"
	check "[ $? -eq 1 ]" "nodefeat fails on $1"
	py "gnnstream.py on $1: the programs' message" "$PY" "$CHK" error "$T/$1" "$T/$1.err"
}
head -c 3000 "$T/f0.gs" >"$T/trunc.gs"; bad trunc.gs
head -c 3000 "$T/f.gs" >"$T/truncz.gs"; bad truncz.gs
flip() {	# FILE OFFSET OUT: one bit of byte OFFSET flipped
	"$PY" -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[int(sys.argv[2])] ^= 1
open(sys.argv[3], 'wb').write(b)" "$@"
}
flip "$T/f0.gs" 2000 "$T/crc.gs"; bad crc.gs
flip "$T/f.gs" 2000 "$T/gzbit.gs"; bad gzbit.gs
sed '0,/^@end/s/^@end records=\([0-9]*\) /@end records=1\1 /' "$T/f.txt" >"$T/count.txt"; bad count.txt
sed '/^@tensor .*name=features /{n;s/^[0-9]/9/;}' "$T/f.txt" >"$T/value.txt"; bad value.txt
sed '/^@end/d' "$T/f.txt" >"$T/noend.txt"; bad noend.txt
# text lines: a header where an edge should be, an extra field, an edge
# twice (the graph is then not simple), a value that is not a number
sed '/^@graph/{n;n;s/.*/@tensor x/;}' "$T/f.txt" >"$T/early.txt"; bad early.txt
sed '/^@graph/{n;n;s/$/\t5/;}' "$T/f.txt" >"$T/extra.txt"; bad extra.txt
sed '/^@graph/{n;h;n;g;}' "$T/f.txt" >"$T/twice.txt"; bad twice.txt
sed '/^@tensor .*name=features /{n;n;s/\t/\tx/;}' "$T/f.txt" >"$T/nan.txt"; bad nan.txt
{ cat "$T/f.gs"; printf 'x'; } >"$T/garbage.gs"; bad garbage.gs
: >"$T/empty.gs"; bad empty.gs
# names: a name twice, fewer lines than count=, a tab in a name (the text
# form may leave bytes= out, so that the checks of the names are reached)
sed '/^@names/{s/ bytes=[0-9]*//;n;s/.*/Myriel/;}' "$T/named.txt" >"$T/ntwice.txt"; bad ntwice.txt
sed '/^@names/,$d' "$T/named.txt" >"$T/nfew.txt"; sed -n '/^@names/,/^Napoleon/p' "$T/named.txt" >>"$T/nfew.txt"; bad nfew.txt
sed '/^@names/{s/ bytes=[0-9]*//;n;s/.*/Napo\tleon/;}' "$T/named.txt" >"$T/ntab.txt"; bad ntab.txt
# (binary: a newline more in the body makes name 1 empty)
gzip -dc "$T/named.gs" | "$PY" -c "import sys; b = sys.stdin.buffer.read(); i = b.index(b'Napoleon', b.index(b'names id='))
sys.stdout.buffer.write(b[:i + 9] + b'\n' + b[i + 9:])" >"$T/nnl.gs"
bad nnl.gs
# a names record out of place: before any graph, for another graph than
# the one before it, naming another number of nodes (issue 48)
printf '##gnnstream 1\n@names id=0 count=2 bytes=4\na\nb\n@graph id=0 nodes=2 edges=1\n0\t1\n@end records=2\n' >"$T/nbefore.txt"
bad nbefore.txt
printf '##gnnstream 1\n@graph id=0 nodes=2 edges=1\n0\t1\n@names id=1 count=2 bytes=4\na\nb\n@end records=2\n' >"$T/nother.txt"
bad nother.txt
printf '##gnnstream 1\n@graph id=0 nodes=3 edges=1\n0\t1\n@names id=0 count=2 bytes=4\na\nb\n@end records=2\n' >"$T/ncount.txt"
bad ncount.txt
# the checks can fail: an intact stream is not an error, and a message
# that is not the program's is not taken
echo "nodefeat: f.gs: record 1: something else" >"$T/other.err"
py_fails "a stream without a fault read as an error" "$PY" "$CHK" error "$T/f.gs" "$T/other.err"
py_fails "another message taken for the program's" "$PY" "$CHK" error "$T/crc.gs" "$T/other.err"
check "! cmp -s $T/crc.gs $T/f0.gs && ! $NORM $T/value.txt | cmp -s - $T/f.norm" "the bad streams differ from the good"

# ---- the PyTorch encoder against gcn-embed ----
if ! "$PY" -c 'import torch' 2>/dev/null; then
	echo "SKIP: python.test.sh: no torch in $PY (Debian: python3-torch): gnnpipe_torch.py did not recompute gcn-embed's rows"
	return 0 2>/dev/null || exit 0
fi
# the shipped model, exported; graphs it never saw; the input features
# by nodefeat, as gnnpipe_torch.py's manual says; gcn-embed at fp32
M="$TOP/models/gcn-pretrain.gs"
dcbm-gen -q --count 3 -s 7 --nodes 40..300 >"$T/e.gs"
nodefeat -q "$T/e.gs" >"$T/e.nf.gs"
# PyTorch in float64, the reference, against gcn-embed's float32 rows to
# 1e-5 x max(1, |value|) (measured: at most 2.2e-6 on the rows, 2.6e-6 of a
# pooled sum); PyTorch in float32 (the default) to 1e-4, as its rounding
# and gcn-embed's add up (measured: 6.1e-6 on the rows, 2e-5 of a sum)
expect 0 "gcn-embed -q -j 1 --precision fp32 --model $M --npy $T/c-blocks.npy $T/e.gs"
py "gnnpipe_torch.py, the command" "$PY" "$GT" -o "$T/cli.npy" "$T/ship.st" "$T/e.nf.gs"
py "gcn-embed = gnnpipe_torch.py's command in float32, to 1e-4" "$PY" "$CHK" close "$T/c-blocks.npy" "$T/cli.npy" 1e-4
py "gnnpipe_torch.embed_stream, every kind" "$PY" "$CHK" encode "$T/ship.st" "$T/e.nf.gs" "$T/t" \
	f64:blocks f64:cluster f64:block3 f64:rank f64:blocks:mean,max f64:blocks:sum f32:blocks:mean,max,sum
for k in blocks cluster block3 rank "blocks --pool mean,max" "blocks --pool sum" "blocks --pool mean,max,sum"; do
	n=$(echo "$k" | tr -d ' -' | tr ',' '_')
	[ "$k" = blocks ] || expect 0 "gcn-embed -q -j 1 --precision fp32 --model $M --embedding $k --npy $T/c-$n.npy $T/e.gs"
	t=$(echo "$k" | sed 's/ --pool /-/; s/,/_/g')
	if [ -e "$T/t-f64-$t.npy" ]; then
		py "gcn-embed --embedding $k = PyTorch in float64, to 1e-5" "$PY" "$CHK" close "$T/c-$n.npy" "$T/t-f64-$t.npy"
	else
		py "gcn-embed --embedding $k = PyTorch in float32, to 1e-4" "$PY" "$CHK" close "$T/c-$n.npy" "$T/t-f32-$t.npy" 1e-4
	fi
done
check "[ \$(ls $T/t-f*.npy | wc -l) -eq 7 ]" "PyTorch computed 7 kinds of rows"
# the encoder straight from the model stream (read by gnnstream.py): the
# same rows as from its export, bit for bit
py "Encoder.from_stream" "$PY" "$CHK" encode "$M" "$T/e.nf.gs" "$T/g" f64:blocks
same "$T/g-f64-blocks.npy" "$T/t-f64-blocks.npy" "the encoder of the model stream = that of its safetensors export"
py "gnnpipe_torch.py with the model stream" "$PY" "$GT" -o "$T/cli-gs.npy" "$M" "$T/e.nf.gs"
same "$T/cli-gs.npy" "$T/cli.npy" "gnnpipe_torch.py: a model stream or its export, the same rows"
# the check can fail: the unscaled features are not the model's input
py "gnnpipe_torch.py on the raw features" "$PY" "$GT" --features features_raw -o "$T/raw.npy" "$T/ship.st" "$T/e.nf.gs"
py_fails "the encoder of other features taken for gcn-embed's" "$PY" "$CHK" close "$T/c-blocks.npy" "$T/raw.npy"
check "$PY $GT -o $T/x.npy $T/ship.st $T/tr.gs 2>$T/nofeat.err; [ \$? -eq 1 ] && [ \$(wc -l <$T/nofeat.err) -eq 1 ] &&
	grep -q \"^gnnpipe_torch.py: graph 0 has no 'features' tensor (run nodefeat first)\" $T/nofeat.err" \
	"gnnpipe_torch.py on a stream without features: one line"

# ---- python/README.md's examples, as printed ----
# (in a directory of their own, python/ and models/ the tree's, python3
# the one the tests use)
R="$T/readme"
mkdir -p "$R/shim"
ln -s "$TOP/python" "$R/python"
ln -s "$TOP/models" "$R/models"
ln -s "$PY" "$R/shim/python3"
awk '/^<!-- tests\/cli\/python.test.sh runs the block below -->/ { want = 1; next }
     want && /^```sh/ { on = 1; next }
     on && /^```/ { exit }
     on' "$TOP/python/README.md" >"$R/readme.sh"
check "[ \$(wc -l <$R/readme.sh) -gt 20 ]" "python/README.md has its block of examples"
(cd "$R" && PATH="$R/shim:$PATH" PYTHONPATH= sh -e readme.sh >readme.out 2>readme.err)
check "[ $? -eq 0 ] && [ ! -s $R/readme.err ]" "python/README.md's examples run, silent on stderr: $(head -c 300 "$R/readme.err")"
check "grep -q '^0 [0-9]* [0-9]* ([0-9]*, 4) \[.degree., .core., .ci1., .clustering.\]' $R/readme.out &&
	grep -q '^3	Dave	1	' $R/readme.out &&
	grep '^gcn-embed - PyTorch: ' $R/readme.out | awk '{ exit !(\$4 >= 0 && \$4 < 1e-4) }' &&
	grep -qx 'Mr. Hi (1536,)' $R/readme.out && grep -q '^@tensor id=0 name=club .*class_names=\"Mr. Hi,Officer\"' $R/readme.out &&
	grep -q 'Data(.*edge_index=\[2, 156\]' $R/readme.out && tail -n 1 $R/readme.out | grep -qx 'True 1.0'" \
	"python/README.md's examples: the features read, the names printed by nodefeat, PyTorch = gcn-embed, networkx to embeddings and back, to_pyg, the adapted model = gcn-adapt --predict"

# ---- the programs' limits in Python too (issue 48) ----
# a text body line longer than the programs' 64 MiB: a 300 KB gzip file
# whose one line would be 320 MiB is refused with the programs' own line,
# in bounded memory (it ran into MemoryError)
"$PY" -c '
import gzip, sys
with gzip.open(sys.argv[1], "wb", compresslevel=9) as f:
    f.write(b"##gnnstream 1\n@graph id=0 nodes=2 edges=1\n")
    for _ in range(10):
        f.write(b"1" * (32 << 20))
    f.write(b" 0\n")
' "$T/longline.gs.gz"
graphstat "$T/longline.gs.gz" 2>"$T/longline.c" >/dev/null
py "gnnstream.py refuses a body line longer than the programs' limit, with their message" "$PY" -c '
import resource, sys, gnnstream
want = open(sys.argv[2]).read().strip()
try:
    gnnstream.read_all(sys.argv[1])
    sys.exit("read a 320 MiB line")
except gnnstream.StreamError as e:
    assert want == "graphstat: " + str(e), (str(e), want)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10
assert rss < 400, "%d MiB of memory for a refused line" % rss
' "$T/longline.gs.gz" "$T/longline.c"
# a full disk: close() and abort() leave no file behind, even when the
# file itself cannot be closed (its buffer is written on close: ENOSPC again)
py "gnnstream.py's Writer leaves no file on a full disk" "$PY" -c '
import errno, os, sys, gnnstream
class Full:
    def __init__(self, f):
        self.f = f
    def write(self, b):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    flush = write
    def fileno(self):
        return self.f.fileno()
    def close(self):
        self.f.close()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
d = sys.argv[1]
for how in ("close", "abort", "with"):
    p = os.path.join(d, how + ".gs")
    w = gnnstream.Writer(p, text=True)
    w._f = Full(w._f)
    try:
        if how == "with":
            with w:
                w.label(0, "y", 1)
        else:
            getattr(w, how)()
    except OSError as e:
        assert e.errno == errno.ENOSPC, e
    left = [x for x in os.listdir(d) if x.startswith("." + how) or x == how + ".gs"]
    assert not left, "%s: %s left" % (how, left)
' "$T"
