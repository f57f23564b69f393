# evalf1.test.sh - command-line table for evalf1 (sourced by run.sh with
# lib.sh: expect, expect_err, check, same).  Scores are checked against the
# values worked out by hand in tests/unit/test_f1.c.
D="$TOP/tests/cli/data"
T="$TMPD/evalf1"
mkdir -p "$T"
TWO="$D/eval-two-runs.txt"	# run 0: micro 5/8, macro 7/12; run 1: all right

expect 0 "evalf1 --format tsv --per-class $TWO >$T/two.tsv"
check "grep -q '^0	8	0.625000	0.583333	0.750000	0.500000	0.500000\$' $T/two.tsv" "run 0 by hand"
check "grep -q '^mean		0.812500	0.791667\$' $T/two.tsv" "mean of the runs"
check "grep -q '^std		0.265165	0.294628\$' $T/two.tsv" "sample std of the runs"
expect 0 "evalf1 $TWO >$T/two.table"
check "grep -q 'micro-F1 81.25 ± 26.52' $T/two.table" "table summary line"
expect 0 "evalf1 --format yaml --confusion $TWO >$T/two.yaml"
check "grep -q 'confusion: \[\[3, 1, 0\], \[0, 1, 1\], \[1, 0, 1\]\]' $T/two.yaml" "confusion matrix"
check "grep -q '^micro_f1: {mean: 0.812500, std: 0.265165}' $T/two.yaml" "yaml summary"
check "grep -q '^task: \"node\"\$' $T/two.yaml && grep -q '^dataset: \"toy\"\$' $T/two.yaml" "yaml task and dataset"
# a task holding a quote, a colon and a carriage return stays one YAML string
printf '##gnnstream 1\n@tensor id=0 name=predictions rows=1 cols=2 type=i32 columns=true,pred task="a\\"b: \rc"\n0\t0\n@end\n' >"$T/quote.txt"
expect 0 "evalf1 --format yaml $T/quote.txt >$T/quote.yaml"
check "grep -q '^task: \"a\\\\\"b: \\\\x0dc\"\$' $T/quote.yaml" "yaml quotes a task's quote and escapes its control bytes"

# runs split over files, in any order, give the same report
awk '/^@tensor id=1/ { on = 1 } /^@end/ { on = 0 } on' "$TWO" | { echo '##gnnstream 1'; cat; echo '@end'; } >"$T/r1.txt"
awk '/^@tensor id=1/ { on = 0 } /^@tensor id=0/ { on = 1 } /^@end/ { on = 0 } on' "$TWO" | { echo '##gnnstream 1'; cat; echo '@end'; } >"$T/r0.txt"
expect 0 "evalf1 --format tsv --per-class $T/r1.txt $T/r0.txt >$T/split.tsv"
same "$T/two.tsv" "$T/split.tsv" "runs from two files, given in reverse"
expect 0 "cat $T/r1.txt $T/r0.txt | gzip | evalf1 --format tsv --per-class >$T/gz.tsv"
same "$T/two.tsv" "$T/gz.tsv" "gzip stream on stdin"
expect 0 "evalf1 -o $T/out.tsv --format tsv --per-class $TWO"
same "$T/two.tsv" "$T/out.tsv" "-o FILE"

# bad input and misuse
bad() { printf '##gnnstream 1\n%s\n@end\n' "$1" >"$T/bad.txt"; }
expect_err 1 "printf '##gnnstream 1\n@end\n' | evalf1" "no 'predictions' records"
bad "@tensor id=0 name=predictions rows=2 cols=2 type=i32 columns=true,pred classes=2
0 0
1 2"
expect_err 1 "evalf1 $T/bad.txt" "outside 0..1"
bad "@tensor id=0 name=predictions rows=1 cols=2 type=f64 columns=true,pred
0 0.5"
expect_err 1 "evalf1 $T/bad.txt" "not a class index"
bad "@tensor id=0 name=predictions rows=1 cols=2 type=i32 columns=truth,pred
0 0"
expect_err 1 "evalf1 $T/bad.txt" "lacks a 'true' or 'pred' column"
expect_err 1 "evalf1 $TWO $TWO" "appears twice"
bad "@tensor id=5 name=predictions rows=1 cols=2 type=i32 columns=true,pred classes=4 task=node dataset=toy
0 0"
expect_err 1 "evalf1 $TWO $T/bad.txt" "does not match"
bad "@tensor id=0 name=predictions rows=1 cols=2 type=i32 columns=true,pred classes=0
0 0"
expect_err 1 "evalf1 $T/bad.txt" "not a class count"
expect_err 1 "head -c 100 $TWO | evalf1" "evalf1"
expect_err 2 "evalf1 --format xml $TWO" "--format"
expect_err 2 "evalf1 --bogus $TWO" "unknown option"
expect 1 "evalf1 $TWO >/dev/full"
expect 1 "evalf1 -o /nonexistent/dir/x $TWO"
echo keep >"$T/keep.tsv"
expect 1 "evalf1 -o $T/keep.tsv $T/bad.txt"
check "[ \"\$(cat $T/keep.tsv)\" = keep ] && [ -z \"\$(ls $T | grep 'keep.tsv.tmp')\" ]" \
	"a failed run leaves the old output and no temporary file"
expect 0 "evalf1 -o /dev/null $TWO"
check "[ -c /dev/null ]" "evalf1 -o /dev/null leaves the device in place"
