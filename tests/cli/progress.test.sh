# progress.test.sh - the progress line of long work (common/progress.c):
# shown with --progress (GNNPIPE_PROGRESS_EVERY=0: at every update), with a
# count, a rate and the time left where the total is known; silent in a
# pipe without --progress, and with -q.  Sourced by run.sh with lib.sh.
T="$TMPD/progress"
mkdir -p "$T"
E="GNNPIPE_PROGRESS_EVERY=0"

expect 0 "$E dcbm-gen --progress -s 1 --count 5 --nodes 60..80 -o $T/g.gs 2>$T/dcbm.err"
check "grep -q '^dcbm-gen: 5/5 graphs (100%), .*/s, .* left\$' $T/dcbm.err &&
	grep -q '^dcbm-gen: 5/5 graphs (100%) in ' $T/dcbm.err" "dcbm-gen: graphs done of the total, rate, time left, last line"
expect 0 "$E dcbm-gen -s 1 --count 5 --nodes 60..80 -o $T/g2.gs 2>$T/quiet.err"
check "[ ! -s $T/quiet.err ]" "dcbm-gen: nothing without --progress when stderr is not a terminal"
expect 0 "$E dcbm-gen -q --progress -s 1 --count 5 --nodes 60..80 -o $T/g2.gs 2>$T/quiet.err"
check "[ ! -s $T/quiet.err ]" "dcbm-gen: -q silences --progress"
expect 0 "centrality -q $T/g.gs >$T/lab.gs"
for p in nodefeat mask-edges; do
	expect 0 "cat $T/lab.gs | $E $p --progress 2>$T/$p.err >$T/$p.gs"
	check "grep -q '^$p: 5 graphs, .*/s\$' $T/$p.err && grep -q '^$p: 5 graphs in ' $T/$p.err" \
		"$p: graphs done and their rate"
	expect 0 "$E $p -q --progress $T/lab.gs 2>$T/$p.q.err >/dev/null"
	check "[ ! -s $T/$p.q.err ]" "$p: -q silences --progress"
done
expect 0 "$E gcn-train --progress -j 1 --hidden 8 --epochs 2 --batch 2 --validation 1 -o $T/m.gs $T/lab.gs 2>$T/train.err"
check "grep -q '^gcn-train: 4/4 steps (100%), .* left; epoch 2, step 4: loss ' $T/train.err" \
	"gcn-train: steps of the run, time left, the loss"
dcbm-gen -q -s 2 --count 1 --nodes 300 | centrality -q >"$T/one.gs"
expect 0 "$E gcn-adapt --progress -j 1 --runs 1 --epochs 3 --head-width 8 --label cluster --no-pretrain \
	--train-per-class 5 --val 50 --test 100 --model $T/m.gs -o $T/p.gs $T/one.gs 2>$T/adapt.err"
check "grep -q '^gcn-adapt: run 1/1: 2/3 epochs (66%), .*, at most .* left; val ' $T/adapt.err &&
	grep -q '^gcn-adapt: run 1/1: 3 epochs (best ' $T/adapt.err" \
	"gcn-adapt: the epochs of a run, with an upper bound of the time left"
expect 0 "$E evalf1 --progress $T/p.gs 2>$T/evalf1.err >/dev/null"
check "grep -q '^evalf1: 1 runs' $T/evalf1.err" "evalf1: runs read"
# a file: its bytes read, with the time left, and the graphs done
expect 0 "$E nodefeat --progress $T/lab.gs 2>$T/file.err >/dev/null"
check "grep -q '^nodefeat: $T/lab.gs: [0-9,]*/[0-9,]* bytes ([0-9]*%), .*/s, .* left\$' $T/file.err &&
	grep -q '^nodefeat: $T/lab.gs: [0-9,]*/[0-9,]* bytes ([0-9]*%), .*/s, .* left; 3 graphs\$' $T/file.err &&
	grep -q '^nodefeat: $T/lab.gs: .* bytes (100%) in .*; 5 graphs\$' $T/file.err" "nodefeat: a file's bytes read, the time left, the graphs done"
GNNPIPE_PROGRESS_EVERY=soon dcbm-gen --progress --count 1 >/dev/null 2>"$T/bad.err"
rc=$?
check "[ $rc -eq 2 ] && [ \$(wc -l <$T/bad.err) -eq 1 ] && grep -q '^dcbm-gen: GNNPIPE_PROGRESS_EVERY=soon: ' $T/bad.err" \
	"a bad GNNPIPE_PROGRESS_EVERY: one line, exit 2"

# on a terminal (script(1) gives one): the line is rewritten in place and
# erased at the end, and a warning meanwhile starts on a clean line
if command -v script >/dev/null 2>&1; then
	script -qc "$E dcbm-gen -s 1 --count 3 --nodes 60..80 >/dev/null" /dev/null >"$T/tty.out" 2>&1
	check "[ \$(tr -cd '\r' <$T/tty.out | wc -c) -ge 3 ] && tail -c 4 $T/tty.out | od -An -c | grep -q '033   \[   K'" \
		"terminal: rewritten with \\r and erased at the end"
else
	echo "progress.test.sh: no script(1), terminal case skipped"
fi
