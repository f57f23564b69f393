# transfer.test.sh - the transfer benchmark on sets of the user's
# (pipelines/transfer.mk, issue 47): a node set (Zachary's karate club, its
# 'club' classes attached by graph-attach) and a graph set (20 small DCBM
# graphs of 2 or 4 clusters, classes by graph-attach --graphs) that the
# benchmark has never seen, every arm and protocol at QUICK=1's size with
# a tiny model; every arm of a set scored on the same items run by run,
# the fine-tuning on the probe's; and the files it refuses, each with one
# line before any cell is made.  Sourced by run.sh with lib.sh.
T="$TMPD/transfer"
D="$TOP/tests/cli/data"
mkdir -p "$T"
PT="make -s -C $TOP/pipelines QUICK=1 THREADS=2 BIN=$BIN BUILD=$T/build RESULTS=$T/results TR_MODEL=$T/model.gs"

# the sets and a model of d = 16 (the arms' shape; seconds, not minutes)
expect 0 "dcbm-gen -q -s 2 --count 12 --nodes 60..120 | centrality -q |
	gcn-train -q -j 2 --hidden 16 --epochs 2 --batch 4 --validation 2 -o $T/model.gs"
expect 0 "graph-attach -q --label club -o $T/karate.gs $D/karate-club.tsv $D/karate.el"
expect 0 "dcbm-gen -q -s 3 --count 10 --nodes 12..24 --clusters 2 --p-div-q 20 -o $T/a.gs &&
	dcbm-gen -q -s 4 --count 10 --first-id 10 --nodes 12..24 --clusters 4 --p-div-q 20 -o $T/b.gs"
awk 'BEGIN { print "graph\tk"; for (i = 0; i < 20; i++) print i "\t" (i < 10 ? "two" : "four") }' >$T/k.tsv
expect 0 "cat $T/a.gs $T/b.gs | graph-attach -q --graphs --label k -o $T/two-four.gs $T/k.tsv"

expect 0 "$PT TR_NODE=$T/karate.gs TR_GRAPH=$T/two-four.gs transfer >$T/out 2>$T/err"
TM="$T/results/transfer-karate-two-four.md"
check "[ -s $TM ] && [ ! -e $T/results/transfer.md ] && cmp -s $T/out $TM" \
	"transfer: the table of the user's sets in its own file, named after them"
check "grep -q '^# The transfer benchmark on karate two-four (quick run)\$' $TM &&
	! grep -q 'Experiments' $TM" "transfer: the title names the sets; no record of the benchmark's experiments"
# a row per protocol; every arm's cell a mean ± sd and a paired interval
check "awk -F ' [|] ' '/^Fine-tuning against/ { done = 1 } !done && /^[|] (karate|two-four) [|] (probe|fine)/ { n++
	for (i = 3; i <= 4; i++) if (\$i !~ /^[0-9]+\\.[0-9] ± [0-9]+\\.[0-9]\$/) exit 1
	if (\$8 !~ /[-+][0-9]+\\.[0-9] \\[[-+][0-9]+\\.[0-9], [-+][0-9]+\\.[0-9]\\]/) exit 1
	if (\$2 ~ /^probe/) for (i = 5; i <= 11; i++) if (\$i == \"–\" || \$i == \"\") exit 1 }
	END { exit n != 5 }' $TM" "transfer: karate's two probes and fine-tuning, two-four's folds and fine-tuning, every arm"
check "grep -q '^| karate | probe, 20 a class | ' $TM && grep -q '^| karate | probe, 80/20 | ' $TM &&
	grep -q '^| two-four | probe, 10 folds | ' $TM && grep -q '^| karate | fine-tuning, 20 a class | ' $TM &&
	grep -q '^| two-four | fine-tuning, 10 folds | ' $TM" "transfer: the user's sets get the protocols of their kind"
# fine-tuning against the probe of the same arm: both arms, intervals
check "[ \$(grep -c '^| \(karate\|two-four\) | fine-tuning, [0-9a-z ]* | [0-9.]* ± [0-9.]* | [0-9.]* ± [0-9.]* | [-+][0-9.]* \[.*\] | [0-9.]* ± [0-9.]* | [0-9.]* ± [0-9.]* | [-+][0-9.]* \[.*\] |\$' $TM) = 2 ]" \
	"transfer: each fine-tuning cell against the probe of its arm"
# every arm of a set (and the fine-tuning of the few-label and fold
# protocols) tested on the same items, run by run
ti() { awk '/^@tensor/ { r++ } !/^[#@]/ { print r, $1 }' "$1" | sort; }
P="$T/build/transfer/pred" U="$T/build/transfer/tune"
for c in karate--few karate--many two-four--folds; do
	s=${c%%--*} p=${c##*--}
	ti "$P/$s--pre--$p.gs" >"$T/items-$c"
	ok=1
	for f in "$P/$s--rand--$p.gs" "$P/$s--feat--$p.gs" "$P/$s--featlog--$p.gs" "$P/$s--refex--$p.gs" \
		$( [ "$p" = many ] || echo "$U/$s--pre--$p.gs $U/$s--rand--$p.gs"); do
		ti "$f" | cmp -s - "$T/items-$c" || ok=0
	done
	check "[ $ok = 1 ] && [ \$(grep -c . $T/items-$c) -gt 5 ]" "transfer: $c: every arm tested on the same items, run by run"
done
check "[ \$(cut -d ' ' -f 1 $T/items-karate--few | sort -u | wc -l) = 3 ] &&
	[ \$(cut -d ' ' -f 1 $T/items-two-four--folds | sort -u | wc -l) = 10 ] &&
	[ \$(grep -c . $T/items-two-four--folds) = 20 ]" "transfer: 3 runs of karate, two-four's 10 folds test each graph once"
# a path relative to where make was called from names the same set: nothing to redo
check "cd $T && $PT -q TR_NODE=karate.gs TR_GRAPH=./two-four.gs transfer" \
	"transfer: a relative path, from the caller's directory: the same cells, made"

# refused before any cell, in one line: a file of the other kind, none,
# no classes, a name of the benchmark's, two files of one name
mkdir -p "$T/other"
cp "$T/karate.gs" "$T/other/cora.gs"
cp "$T/karate.gs" "$T/other/karate.gs"
refused() {	# refused VARS TEXT what
	check "! $PT BUILD=$T/build-r $1 transfer >/dev/null 2>$T/refused.err &&
		[ \$(grep -c . $T/refused.err) = 1 ] && grep -q '$2' $T/refused.err &&
		[ ! -e $T/build-r/transfer ]" "transfer: refused: $3"
}
refused "TR_NODE=$T/two-four.gs" "TR_NODE: $T/two-four.gs: graph classes (label records), no node classes.*: name it in TR_GRAPH" \
	"graph classes named as a node set"
refused "TR_GRAPH=$T/karate.gs" "TR_GRAPH: $T/karate.gs: node classes (a .label. tensor), no graph classes.*: name it in TR_NODE" \
	"node classes named as a graph set"
refused "TR_NODE=$T/none.gs" "TR_NODE: $T/none.gs: no such file" "a missing file"
refused "TR_GRAPH=$T/a.gs" "TR_GRAPH: $T/a.gs: no classes" "a stream without classes"
refused "TR_NODE=$T/other/cora.gs" "its cells would be named cora, a set of the benchmark.s; rename the file" "a name of the benchmark's"
refused "TR_NODE='$T/karate.gs $T/other/karate.gs'" "two files of one name" "two files of one name"
