# mask-edges.test.sh - command-line table for mask-edges (sourced by run.sh
# with lib.sh: expect, expect_err, check, same).
D="$TOP/tests/cli/data"
T="$TMPD/mask"
mkdir -p "$T"
SMALL="$D/mask-small.ok.txt"

# tests/cli/mask-check.awk checks the text output of one masked edge list
M="$TOP/tests/cli/mask-check.awk"

# ---- usage: -h, --version, misuse (exit 2, one line) ----
expect 0 "mask-edges -h"
check "mask-edges -h | grep -q '^usage: mask-edges '" "-h prints usage on stdout"
check "mask-edges -h | grep -q 'fraction.*\[0.2\]'" "-h shows the default fraction"
check "mask-edges -f 0.35 -p all -h | grep -q 'fraction.*\[0.35\]' && mask-edges -p all -h | grep -q 'positives.*\[all\]'" "-h shows live values"
expect 0 "mask-edges --version"
check "mask-edges --version | grep -q 'mask-edges.*0\.'" "--version prints a version"
expect_err 2 "mask-edges -f 1.5 $SMALL" "-f"
expect_err 2 "mask-edges -f 1 $SMALL" "below 1"
expect 2 "mask-edges -f -0.1 $SMALL"
expect 2 "mask-edges -f nan $SMALL"
expect 2 "mask-edges -f 0.2x $SMALL"
expect 2 "mask-edges -f '' $SMALL"
expect_err 2 "mask-edges -p -1 $SMALL" "-p"
expect 2 "mask-edges -p some $SMALL"
expect 2 "mask-edges -p 3x $SMALL"
expect 2 "mask-edges -n -1 $SMALL"
expect 2 "mask-edges -n 1e3 $SMALL"
expect 2 "mask-edges -s -1 $SMALL"
expect 2 "mask-edges -l 10 $SMALL"
expect_err 2 "mask-edges --bogus $SMALL" "unknown option '--bogus'"
expect_err 2 "mask-edges -x $SMALL" "unknown option '-x'"
expect_err 2 "mask-edges $SMALL -f" "needs a value"
check "! mask-edges -x $SMALL >$T/misuse.out 2>/dev/null; test ! -s $T/misuse.out" "misuse writes nothing on stdout"

# ---- bad input: exit 1, one line naming the problem ----
expect_err 1 "mask-edges $D/mask-garbage.bad.txt" "not an edge list"
expect_err 1 "mask-edges $D/mask-bad-range.bad.txt" "out of range"
expect_err 1 "mask-edges $D/mask-range.bad.gs" "record 1"
expect_err 1 "mask-edges $D/mask-range.bad.gs" "node 9 out of range"
expect_err 1 "mask-edges $D/mask-dup.bad.gs" "duplicate edge"
expect_err 1 "mask-edges $D/mask-masked.bad.gs" "masked already"
expect 1 "mask-edges $T/does-not-exist"
expect 1 "mask-edges </dev/null"
# a truncated gzip stream: the first 100 bytes of a good one
mask-edges -q -s 1 "$SMALL" >"$T/small.gs" 2>/dev/null
head -c 100 "$T/small.gs" >"$T/trunc.gs"
check "test \$(wc -c <$T/small.gs) -gt 200" "gzip output long enough to truncate"
expect_err 1 "mask-edges $T/trunc.gs" "trunc"
# a stream cut just before its end record (plain, so no gzip error hides it)
sed '$d' "$D/mask-two.ok.gs" >"$T/noend.gs"
expect_err 1 "mask-edges -q $T/noend.gs" "truncated"
# a future version, text and binary
printf '##gnnstream 99\n@end records=0\n' >"$T/v99.gs"
expect_err 1 "mask-edges $T/v99.gs" "version"
printf '\211GNS\143\000\000\000\000\000\000\000' >"$T/v99b.gs"
expect_err 1 "mask-edges $T/v99b.gs" "version"
printf '\211GNX\001\000\000\000garbage' >"$T/magic.gs"
expect 1 "mask-edges $T/magic.gs"
# output errors
expect 1 "mask-edges -q $SMALL >/dev/full"
expect 1 "mask-edges -q -o $T/no-such-dir/out.gs $SMALL"
printf 'keep me\n' >"$T/good.out"
expect 1 "mask-edges -q -o $T/good.out $D/mask-garbage.bad.txt"
check "grep -q '^keep me$' $T/good.out" "a failed run leaves the -o file alone"
# --strict: a graph too small for the pairs asked for
expect_err 1 "mask-edges --strict $SMALL" "--strict"
expect_err 1 "mask-edges --strict -p 16 -n 701 $SMALL" "non-edges"
expect 0 "mask-edges --strict -p 16 -n 700 $SMALL"

# ---- plain edge list in, semantics checked on the text output ----
# 40 nodes, 80 edges: r = round(0.2 * 80) = 16, N = 780 - 80 = 700
expect 0 "mask-edges -q -t -s 3 -p 10 -n 50 $SMALL >$T/s3.txt"
check "awk -v P=10 -v N=50 -f $M $SMALL $T/s3.txt" "10 positives, 50 negatives, all valid"
check "grep -q '^@graph id=0 nodes=40 edges=64 .*mask_fraction=0.2 masked_edges=16' $T/s3.txt" "graph header: 64 edges kept, masked_edges=16"
check "grep -q '^@pairs id=0 name=mask count=60 labels=i32 .*positives=10 negatives=50' $T/s3.txt" "pairs header"
mask-edges -q -t -s 3 -p all -n 700 "$SMALL" >"$T/all.txt" 2>/dev/null
check "awk -v P=16 -v N=700 -f $M $SMALL $T/all.txt" "-p all lists the 16 removed edges; -n 700 every non-edge"
mask-edges -q -t -s 3 -f 0.5 -p 0 -n 0 "$SMALL" >"$T/half.txt" 2>/dev/null
check "awk -v P=0 -v N=0 -f $M $SMALL $T/half.txt" "-f 0.5 -p 0 -n 0: a masked graph and an empty pair set"
check "grep -q 'edges=40 .*masked_edges=40' $T/half.txt" "-f 0.5 removes 40 of 80"
mask-edges -q -t -f 0 -p 5 -n 5 "$SMALL" >"$T/zero.txt" 2>/dev/null
check "awk -v P=0 -v N=5 -f $M $SMALL $T/zero.txt" "-f 0 keeps every edge, no positives"
# 0.03 * 80 = 2.4 -> 2; 0.0375 * 80 = 3 ; 0.05625 * 80 = 4.5 -> 5 (halves up)
check "mask-edges -q -t -f 0.03 $SMALL | grep -q 'masked_edges=2\$'" "2.4 rounds to 2"
check "mask-edges -q -t -f 0.05625 $SMALL | grep -q 'masked_edges=5\$'" "4.5 rounds up to 5"
# shortfall: a warning, exit 0
expect 0 "mask-edges -t $SMALL >$T/short.txt"
check "mask-edges -t $SMALL 2>&1 >/dev/null | grep -q 'fewer than -p 128'" "shortfall warns"
check "awk -v P=16 -v N=256 -f $M $SMALL $T/short.txt" "shortfall gives every removed edge"
check "test -z \"\$(mask-edges -q -t $SMALL 2>&1 >/dev/null)\"" "-q silences the warning"
check "mask-edges $D/mask-two.ok.gs 2>&1 >/dev/null | grep -q '2 of 2 graphs had fewer positives'" "a summary counts the short graphs"
check "test \$(mask-edges $D/mask-two.ok.gs 2>&1 >/dev/null | wc -l) -eq 3" "first shortfalls + summary: 3 lines, not one per graph"
check "test -z \"\$(mask-edges -t -p 16 $SMALL 2>&1 >/dev/null)\"" "no warning when counts are met"
# labels of kept edges survive; 5 nodes, 6 edges, -f 0.5 -> 3 removed
mask-edges -q -t -s 1 -f 0.5 -n 0 "$D/mask-labels.ok.txt" >"$T/lab.txt" 2>/dev/null
check "awk '/^@graph/{g=1;next} /^@/{g=0} g' $T/lab.txt | awk 'BEGIN{l[\"0 1\"]=5;l[\"1 2\"]=7;l[\"2 3\"]=9;l[\"3 4\"]=11;l[\"0 4\"]=13;l[\"0 2\"]=15} {n++; if (l[\$1\" \"\$2] != \$3) bad=1} END{exit bad || n != 3}'" "kept edges keep their labels"
check "grep -q '^@graph id=0 nodes=5 edges=3 labels=i32' $T/lab.txt" "labelled graph header"
printf '0 1 5\n1 2 7\n1 0 99\n' >"$T/lab-conflict.txt"
expect_err 1 "mask-edges -s 1 $T/lab-conflict.txt" "edge 0-1 is listed with labels 5 and 99"
# graphs with no node pairs at all
expect 0 "mask-edges -q -t $D/mask-empty.ok.gs >$T/empty.txt"
check "test \$(grep -c '^@pairs id=[01] name=mask count=0 ' $T/empty.txt) -eq 2" "0- and 1-node graphs: empty pair sets"

# ---- streams: pass-through, ids, determinism ----
expect 0 "mask-edges -q -t -s 5 $D/mask-two.ok.gs >$T/two.txt"
check "grep -q '^@tensor id=3 name=cluster rows=6 cols=1 type=i32' $T/two.txt" "tensor passes through"
check "awk '/^@tensor/{t=1;next} /^@/{t=0} t' $T/two.txt | tr '\n' ' ' | grep -qx '0 0 0 1 1 1 '" "tensor values unchanged"
check "grep -q '^@label id=3 name=class value=4' $T/two.txt" "graph label passes through"
check "grep -q '^@graph id=3 nodes=6 edges=7 .*k=2 mask_fraction=0.2 masked_edges=2' $T/two.txt" "attributes kept, masking added"
check "test \"\$(grep '^@' $T/two.txt | awk '{print \$1, (\$1 == \"@pg\" ? \"\" : \$2)}' | tr '\n' ' ')\" = '@pg  @graph id=3 @pairs id=3 @tensor id=3 @label id=3 @graph id=7 @pairs id=7 @end records=7 '" "record order: each graph, then its pairs, then the rest"
# a graph's masking depends only on (seed, id): graph 7 alone gives the same
sed -n '1p;/^@graph id=7/,$p' "$D/mask-two.ok.gs" | sed 's/^@end records=4/@end records=1/' >"$T/seven.gs"
mask-edges -q -t -s 5 <"$T/seven.gs" | sed -n '/^@graph/,/^@end/p' | grep -v '^@end' | sed 's/ pg=[^ ]*//' >"$T/seven.a"
sed -n '/^@graph id=7/,/^@end/p' "$T/two.txt" | grep -v '^@end' | sed 's/ pg=[^ ]*//' >"$T/seven.b"
check "test -s $T/seven.a" "graph 7 masked alone"
same "$T/seven.a" "$T/seven.b" "graph 7 alone vs. in a stream"
# byte-identical output for the same seed, whatever -j; different seeds differ
mask-edges -q -s 9 -p 8 -n 8 "$SMALL" >"$T/d1.gs" 2>/dev/null
mask-edges -q -s 9 -p 8 -n 8 "$SMALL" >"$T/d2.gs" 2>/dev/null
same "$T/d1.gs" "$T/d2.gs" "same seed, same bytes"
mask-edges -q -j 1 -s 9 -t "$SMALL" >"$T/j1.txt" 2>/dev/null
mask-edges -q -j 4 -s 9 -t "$SMALL" >"$T/j4.txt" 2>/dev/null
sed -i 's/ pg=[^ ]*//; /^@pg/d; /^@end/d' "$T/j1.txt" "$T/j4.txt"
same "$T/j1.txt" "$T/j4.txt" "-j 1 and -j 4 agree"
mask-edges -q -s 10 -t "$SMALL" | sed 's/ pg=[^ ]*//; /^@pg/d; /^@end/d' >"$T/s10.txt"
check "! cmp -s $T/j1.txt $T/s10.txt" "seeds 9 and 10 differ"
# gzip by default, plain with -l 0, stdin and -o
check "gzip -t <$T/d1.gs" "default output is gzip"
check "mask-edges -q -l 0 $SMALL | head -c 4 | od -c | grep -q 'G   N   S'" "-l 0 writes the plain binary form"
expect 0 "mask-edges -q -s 9 -p 8 -n 8 -o $T/o.gs <$SMALL"
check "gzip -t <$T/o.gs" "-o writes gzip"
expect_err 1 "mask-edges -q -t $T/o.gs" "masked already"
# an edge list on stdin
expect 0 "cat $SMALL | mask-edges -q -s 2 -t -f 0.1 -p 4 -n 4 | grep -q '^@pairs id=0 name=mask count=8 '"

# ---- with dcbm-gen, when another helper has built it ----
if [ -x "$BIN/dcbm-gen" ]; then
	expect 0 "dcbm-gen --count 4 -s 1 | mask-edges -q -s 2 -t >$T/dcbm.txt"
	check "test \$(grep -c '^@pairs .*name=mask' $T/dcbm.txt) -eq 4" "4 generated graphs, 4 pair sets"
fi
