# outputs.test.sh - outputs never clobber, and several outputs commit
# together (sourced by run.sh with lib.sh): -o through symbolic links, to
# standard output, devices and FIFOs, over read-only files, for every
# program; gcn-train's outputs against its inputs; gcn-adapt's predictions
# and --save-model replaced together or not at all; checkpoints that are
# refused when invalid and never written with a non-finite value.
T="$TMPD/outputs"
mkdir -p "$T"
TR="-q -j 1 -s 1 --hidden 8 --epochs 1 --batch 4 --validation 2"
AD="-q -j 1 -s 1 --head-width 8 --runs 1 --epochs 2 --label cluster --train-per-class 2 --val 5 --test 5"
dcbm-gen -q -s 3 --count 12 --nodes 40..60 | centrality -q >"$T/lab.gs"
dcbm-gen -q -s 1 --count 1 --nodes 30 >"$T/node.gs"
printf '0 1\n1 2\n2 0\n2 3\n' >"$T/el.txt"
gcn-train $TR -o "$T/m.gs" "$T/lab.gs"
gcn-adapt $AD --model "$T/m.gs" -o "$T/pred.gs" "$T/node.gs"

# -- -o through a link to the standard output: written there, the link kept
# (every program that writes -o; no program ever renames over the link)
i=0
for cmd in "dcbm-gen -q -s 1 --count 2 --nodes 30" "mask-edges -q $T/lab.gs" \
	"nodefeat -q $T/lab.gs" "centrality -q $T/node.gs" "gcn-train $TR $T/lab.gs" \
	"gcn-adapt $AD --model $T/m.gs $T/node.gs" "gcn-embed -q --model $T/m.gs $T/node.gs" \
	"gcn-export $T/m.gs" "evalf1 $T/pred.gs" "graph-import -q -f edgelist $T/el.txt"; do
	i=$((i + 1))
	d="$T/link$i"
	mkdir -p "$d"
	ln -s /proc/self/fd/1 "$d/L"
	expect 0 "$cmd -o $d/L >$d/real"
	check "[ -L $d/L ] && [ -s $d/real ] && [ \"\$(ls -A $d)\" = 'L
real' ]" "${cmd%% *} -o LINK-TO-STDOUT >real: real holds the output, the link stays a link"
done
# and --npy (rewrites its header at the end): after what stdout already holds
d="$T/npy"
mkdir -p "$d"
ln -s /proc/self/fd/1 "$d/L"
expect 0 "{ printf 'abc'; gcn-embed -q --model $T/m.gs --npy $d/L $T/node.gs; } >$d/real"
check "[ -L $d/L ] && [ \"\$(head -c 9 $d/real | od -An -c | tr -d ' ')\" = 'abc223NUMPY' ] &&
	head -c 140 $d/real | grep -aq \"'shape': (30, 24)\"" \
	"--npy through a link to stdout: the header rewritten where it began"
# a stream written after what the shell wrote first (the same descriptor)
expect 0 "{ echo '# a line first'; nodefeat -q -t -o $T/link1/L $T/node.gs; } >$T/link1/first"
check "head -n 1 $T/link1/first | grep -qx '# a line first' && sed 1d $T/link1/first | nodefeat -q >/dev/null" \
	"-o LINK-TO-STDOUT: the stream follows what stdout held, and reads back"
# /dev/stdout itself is never touched here (a broken build would replace it
# as root); the machine's link must still be a link
check "[ -L /dev/stdout ] || [ ! -e /dev/stdout ] || [ -c /dev/stdout ]" "/dev/stdout is still what it was"

# -- a link to a regular file: the file replaced, the link kept; a link to a
# file not there yet creates it
mkdir -p "$T/lk/sub"
echo old >"$T/lk/sub/t.gs"
ln -s sub/t.gs "$T/lk/L"
ln -s sub/new.gs "$T/lk/D"
expect 0 "nodefeat -q -o $T/lk/L $T/node.gs && nodefeat -q -o $T/lk/D $T/node.gs"
check "[ -L $T/lk/L ] && [ -L $T/lk/D ] && nodefeat -q $T/lk/sub/t.gs >/dev/null &&
	nodefeat -q $T/lk/sub/new.gs >/dev/null && [ \"\$(ls -A $T/lk/sub)\" = 'new.gs
t.gs' ]" "-o LINK-TO-FILE: the file it leads to replaced or created, the links kept, nothing else left"
ln -s nodir/x.gs "$T/lk/nodir-link"
expect_err 1 "nodefeat -q -o $T/lk/nodir-link $T/node.gs" "nodir-link: cannot write"

# -- a FIFO and a device: written directly, still a FIFO and a device
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/from-fifo" &
expect 0 "nodefeat -q -o $T/fifo $T/node.gs"
wait
check "[ -p $T/fifo ] && nodefeat -q $T/from-fifo >/dev/null" "-o FIFO: written through the FIFO, which stays one"
ln -s /dev/null "$T/null"
expect 0 "nodefeat -q -o $T/null $T/node.gs && nodefeat -q -o /dev/null $T/node.gs"
check "[ -L $T/null ] && [ -c /dev/null ] && [ ! -s /dev/null ]" "-o /dev/null (and a link to it): /dev/null stays the device"

# -- a read-only file is refused and kept; a replaced file keeps its mode
echo keep >"$T/ro.gs"
chmod 0444 "$T/ro.gs"
expect_err 1 "nodefeat -q -o $T/ro.gs $T/node.gs" "ro.gs: read-only file (mode 0444): not replaced"
check "[ \"\$(cat $T/ro.gs)\" = keep ] && [ \$(stat -c %a $T/ro.gs) = 444 ]" "the read-only file is unchanged"
ln -s ro.gs "$T/ro-link"
expect_err 1 "gcn-embed -q --model $T/m.gs -o $T/ro-link $T/node.gs" "read-only file (mode 0444)"
echo old >"$T/rw.gs"
chmod 0640 "$T/rw.gs"
expect 0 "nodefeat -q -o $T/rw.gs $T/node.gs"
check "[ \$(stat -c %a $T/rw.gs) = 640 ] && nodefeat -q $T/rw.gs >/dev/null" "a replaced file keeps its mode (0640)"
check "[ -z \"\$(ls -A $T | grep tmp)\" ]" "no temporary file left anywhere"

# -- gcn-train: an output that is an input or another output is refused up
# front, by file identity; the checkpoint's directory is checked up front
G="$T/train"
mkdir -p "$G"
cp "$T/lab.gs" "$G/l.gs"
cp "$G/l.gs" "$G/l.orig"
ln -s l.gs "$G/l-link"
expect_err 2 "gcn-train $TR --checkpoint $G/l.gs -o $G/m.gs $G/l.gs" "--checkpoint $G/l.gs: the same file as the input"
expect_err 2 "gcn-train $TR --checkpoint $G/l-link -o $G/m.gs $G/l.gs" "the same file as the input"
expect_err 2 "gcn-train $TR --log $G/l.gs -o $G/m.gs $G/l.gs" "--log $G/l.gs: the same file as the input"
expect_err 2 "gcn-train $TR -o $G/l-link $G/l.gs" "the same file as the input"
same "$G/l.gs" "$G/l.orig" "the training input is unchanged"
expect_err 2 "gcn-train $TR --checkpoint $G/X -o $G/X $G/l.gs" "--checkpoint $G/X: the same file as -o $G/X"
expect_err 2 "gcn-train $TR --checkpoint $G/X -o $G/./X $G/l.gs" "the same file as -o"
expect_err 2 "gcn-train $TR --log $G/X -o $G/X $G/l.gs" "--log $G/X: the same file as -o"
expect_err 2 "gcn-train $TR --checkpoint $G/X --log $G/X -o $G/m.gs $G/l.gs" "--log $G/X: the same file as --checkpoint"
expect_err 2 "gcn-train $TR --checkpoint -" "--checkpoint: expected a file name"
expect_err 2 "gcn-train $TR --log $G/X $G/l.gs >$G/X" "--log $G/X: the same file as the model's standard output"
expect_err 2 "gcn-train $TR --checkpoint $G/X $G/l.gs >$G/X" "the same file as the model's standard output"
rm -f "$G/X"
expect 0 "gcn-train $TR --checkpoint /dev/null --log /dev/null $G/l.gs >/dev/null"
check "[ \"\$(ls -A $G)\" = 'l-link
l.gs
l.orig' ]" "refused runs leave nothing"
# the checkpoint's directory: checked before the first step (no log line)
expect_err 1 "gcn-train $TR --log $G/log.tsv --checkpoint $G/nodir/ck.gs -o $G/m.gs $G/l.gs" "nodir/ck.gs: No such file or directory"
check "[ ! -e $G/log.tsv ] && [ ! -e $G/m.gs ]" "--checkpoint nodir/ck.gs fails before training (no log, no model)"
echo keep >"$G/ro-ck.gs"
chmod 0444 "$G/ro-ck.gs"
expect_err 1 "gcn-train $TR --log $G/log.tsv --checkpoint $G/ro-ck.gs -o $G/m.gs $G/l.gs" "ro-ck.gs: read-only file"
check "[ ! -e $G/log.tsv ] && [ \"\$(cat $G/ro-ck.gs)\" = keep ]" "a read-only checkpoint file fails before training, kept"
# resuming from and checkpointing to the same file goes on; -o over it does not
expect 0 "gcn-train $TR --checkpoint $G/ck.gs -o $G/m.gs $G/l.gs"
expect 0 "gcn-train $TR --epochs 2 --resume $G/ck.gs --checkpoint $G/ck.gs -o $G/m2.gs $G/l.gs"
check "nodefeat -q -t $G/ck.gs | grep -q '^@model name=gcn-pretrain-checkpoint .* epoch=2 '" \
	"--resume X --checkpoint X: the checkpoint goes on (epoch 2)"
expect_err 2 "gcn-train $TR --epochs 3 --resume $G/ck.gs -o $G/ck.gs $G/l.gs" "-o $G/ck.gs: the same file as --resume"

# -- every program: an output never replaces an input or the model, by file
# identity (a symbolic or hard link to the input, standard input, the model,
# a table, a config), whether the output or the input is opened first; the
# input is left as it was (issue 48)
N="$T/noclobber"
mkdir -p "$N"
cp "$T/node.gs" "$N/g.gs"
cp "$T/m.gs" "$N/gin.gs"
ln -s g.gs "$N/g-sym"
ln "$N/g.gs" "$N/g-hard"
printf 'node,c\n0,a\n1,b\n' >"$N/t.csv"
printf 'count: 1\n' >"$N/c.yaml"
cp "$T/el.txt" "$N/el.txt"
for f in g.gs gin.gs t.csv c.yaml el.txt; do cp "$N/$f" "$N/$f.orig"; done
expect_err 2 "gcn-adapt $AD --save-model $N/gin.gs $N/gin.gs" "--save-model $N/gin.gs: the same file as the input $N/gin.gs"
expect_err 2 "gcn-adapt $AD -o $N/gin.gs $N/gin.gs" "-o $N/gin.gs: the same file as the input"
expect_err 2 "gcn-adapt $AD --model $N/gin.gs -o $N/gin.gs $N/g.gs" "-o $N/gin.gs: the same file as --model"
expect_err 2 "gcn-adapt $AD --model $N/gin.gs -o $N/p.gs --save-model $N/g-hard $N/g.gs" "the same file as the input"
expect_err 2 "gcn-adapt $AD --model $N/gin.gs -o $N/g-sym <$N/g.gs" "-o $N/g-sym: the same file as the standard input"
expect_err 2 "gcn-embed -q -o $N/gin.gs $N/gin.gs" "-o $N/gin.gs: the same file as the input"
expect_err 2 "gcn-embed -q --model $N/gin.gs -o $N/gin.gs $N/g.gs" "-o $N/gin.gs: the same file as --model"
expect_err 2 "gcn-embed -q --model $N/gin.gs -o $N/g-hard <$N/g.gs" "the same file as the standard input"
expect_err 2 "gcn-train $TR -o $N/g.gs <$N/g.gs" "-o $N/g.gs: the same file as the standard input"
expect_err 2 "nodefeat -q -o $N/g-hard $N/g.gs" "$N/g.gs: the same file as the output $N/g-hard"
expect_err 2 "nodefeat -q -o $N/g-sym <$N/g.gs" "<stdin>: the same file as the output $N/g-sym"
expect_err 2 "centrality -q -o $N/g.gs $N/g-sym" "the same file as the output"
expect_err 2 "mask-edges -q -o $N/g-hard <$N/g.gs" "the same file as the output"
expect_err 2 "graphstat -q -o $N/g.gs $N/g.gs" "the same file as the output"
expect_err 2 "nodefeat -q <$N/g.gs >>$N/g.gs" "<stdin>: the same file as the output <stdout>"
expect_err 2 "gcn-export -o $N/gin.gs $N/gin.gs" "the same file as the output"
expect_err 2 "graph-attach -q --key node --label c -o $N/t.csv $N/t.csv $N/g.gs" "$N/t.csv: the same file as the input $N/t.csv"
expect_err 2 "dcbm-gen -q --config $N/c.yaml -o $N/c.yaml" "$N/c.yaml: the same file as the input"
expect_err 2 "graph-import -q -f edgelist -o $N/el.txt $N/el.txt" "the same file as the output"
expect_err 2 "graph-import -q -f edgelist -o $N/el.txt <$N/el.txt" "the same file as the output"
for f in g.gs gin.gs t.csv c.yaml el.txt; do same "$N/$f" "$N/$f.orig" "$f: refused as an output, kept as it was"; done
check "[ -z \"\$(ls -A $N | grep tmp)\" ] && [ ! -e $N/p.gs ]" "the refused runs leave no file behind"

# -- gcn-adapt: the predictions and --save-model are replaced together
A="$T/adapt"
mkdir -p "$A"
echo old-pred >"$A/p.gs"
expect_err 1 "gcn-adapt $AD --model $T/m.gs -o $A/p.gs --save-model /dev/full $T/node.gs" "/dev/full: write error"
check "[ \"\$(cat $A/p.gs)\" = old-pred ] && [ \"\$(ls -A $A)\" = p.gs ]" \
	"--save-model fails (/dev/full): the old predictions are kept, no temporary file left"
echo old-model >"$A/am.gs"
expect_err 1 "gcn-adapt $AD --model $T/m.gs -o /dev/full --save-model $A/am.gs $T/node.gs" "/dev/full: write error"
check "[ \"\$(cat $A/am.gs)\" = old-model ]" "-o fails (/dev/full): the old --save-model file is kept"
expect_err 2 "gcn-adapt $AD --model $T/m.gs -o $A/p.gs --save-model $A/./p.gs $T/node.gs" "the predictions go there too"
expect_err 2 "gcn-adapt $AD --model $T/m.gs --save-model $T/m.gs $T/node.gs" "the same file as --model"
expect_err 2 "gcn-adapt $AD --model $T/m.gs --save-model $A/x.gs $T/node.gs >$A/x.gs" "the predictions go there too (the standard output"
rm -f "$A/x.gs"
expect 0 "gcn-adapt $AD --model $T/m.gs -o $A/p.gs --save-model $A/am.gs $T/node.gs"
check "evalf1 $A/p.gs >/dev/null && gcn-adapt -q --predict --model $A/am.gs $T/node.gs | evalf1 >/dev/null" \
	"both files written when both are complete"

# -- a signal just after the temporary file is made: it is removed.  The
# name is registered before mkstemp creates the file, and the handler
# installed: a process stopped between the two and ended by its launcher
# (SIGCONT, SIGTERM) left it behind (mpi.test.sh's stopped rank 0, seen
# once in CI).  The shim (tests/cli/slow-mkstemp.c) holds mkstemp after it
# has made the file and marks that with FILE.slow; the test waits for the
# mark (the event, not a time; 600 s bound), then signals.  (SIGINT: a
# background command of sh has it ignored, and an ignored signal stays
# ignored.)
SLOW="$TOP/tests/bin/slow-mkstemp.so"
if [ ! -f "$SLOW" ] || [ "$TOP/tests/cli/slow-mkstemp.c" -nt "$SLOW" ]; then
	mkdir -p "$TOP/tests/bin"
	cc -std=c11 -O2 -shared -fPIC -o "$SLOW" "$TOP/tests/cli/slow-mkstemp.c" -ldl
fi
for sig in TERM HUP; do
	d="$T/slow$sig"
	mkdir -p "$d"
	# (an ASan build: the shim comes before ASan's runtime; said allowed)
	(cd "$d" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		LD_PRELOAD="$SLOW" GNN_SLOW_MKSTEMP=600000 exec dcbm-gen -q -s 1 --count 1 -o out.gs) &
	pid=$!
	k=0
	until ls "$d" | grep -q '\.tmp.*\.slow$' || ! kill -0 $pid 2>/dev/null || [ $k -ge 12000 ]; do
		sleep 0.05
		k=$((k + 1))
	done
	held=$(ls "$d" | tr '\n' ' ')
	kill -$sig $pid 2>/dev/null
	{ wait $pid; } 2>/dev/null # (not sh's "Terminated")
	rc=$?
	num=15
	[ $sig = TERM ] || num=1
	check "[ $rc -eq $((128 + num)) ] && ! ls $d | grep -v '\\.slow\$' | grep -q ." \
		"SIG$sig while the temporary file is new: no file left but the shim's mark (exit $rc; held: $held; now: $(ls "$d" | tr '\n' ' '))"
done
