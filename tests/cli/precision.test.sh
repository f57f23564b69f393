# precision.test.sh - the products' precision (gcn-train and gcn-adapt
# --precision auto|fp32|bf16, common/gemm.h): the choice is recorded (the
# model's train.precision, the pg record's command line, the predictions'
# precision attribute), bf16 runs are reproducible, misuse is one line, and
# a short training in bf16 scores within the fp32 runs' seed-to-seed noise.
# Where bf16 is not available (no oneDNN, or a CPU without bf16 products,
# as ONEDNN_MAX_CPU_ISA=AVX2 makes it), bf16 is one line of error, auto is
# fp32, and the bf16 runs are skipped with one SKIP line.
T="$TMPD/precision"
mkdir -p "$T"
expect 0 "dcbm-gen -q -s 11 --count 24 --nodes 100..250 | centrality -q -o $T/g.gs"
TR="-q -j 2 --hidden 64 --epochs 4 --batch 4 --validation 6 --patience 100"
# the attribute ATTR of a text stream's model record
attr() { sed -n "s/^@model .* $2=\([^ ]*\).*/\1/p" "$1"; }

# ---- misuse: one line, exit 2 ----
expect_err 2 "gcn-train --precision fp16 $T/g.gs" "gcn-train: --precision: 'fp16': expected auto, fp32 or bf16"
printf 'train:\n  precision: half\n' >"$T/half.yaml"
expect_err 2 "gcn-train --config $T/half.yaml $T/g.gs" "train.precision: 'half': expected auto, fp32 or bf16"
expect_err 2 "gcn-adapt --precision 16 $T/g.gs" "gcn-adapt: --precision: '16': expected auto, fp32 or bf16"

# ---- is bf16 here?  (BF16: lib.sh's bf16_probe) ----
bf16_probe "$T"
HI=fp32 ALL=fp32	# the precision of the checks below: bf16 where it is available
[ "$BF16" = 1 ] && HI=bf16 ALL="fp32 bf16"

# ---- the choice is recorded ----
for p in $ALL; do
	expect 0 "gcn-train $TR -s 1 --precision $p -t -o $T/m-$p.txt $T/g.gs"
	check "grep -q '^train.precision: \"$p\"' $T/m-$p.txt" "the $p model's config says train.precision: $p"
	check "grep '^@pg .*prog=gcn-train' $T/m-$p.txt | grep -q -- '--precision $p '" \
		"the $p model's pg record says --precision $p"
done
# a rerun, in another directory (the pg record holds the -o path given)
mkdir -p "$T/a" "$T/b"
for d in a b; do
	expect 0 "cd $T/$d && gcn-train $TR -s 1 --precision $HI -t -o m.txt ../g.gs"
done
same "$T/a/m.txt" "$T/b/m.txt" "$HI: same bytes on a rerun"
# auto: the precision it chose, in the config and the pg record (not "auto"),
# and said on stderr; fp32 where bf16 is not available
expect 0 "gcn-train -j 2 --hidden 64 --epochs 1 --batch 4 --validation 6 -t -o $T/auto.txt $T/g.gs 2>$T/auto.err"
check "grep -q '^gcn-train: precision auto: \(bf16\|fp32\): ' $T/auto.err" "auto says what it chose, and why"
ch=$(sed -n 's/^gcn-train: precision auto: \(bf16\|fp32\): .*/\1/p' "$T/auto.err")
check "grep -q '^train.precision: \"$ch\"' $T/auto.txt && grep '^@pg .*prog=gcn-train' $T/auto.txt | grep -q -- '--precision $ch '" \
	"auto records the precision it chose ($ch)"
[ "$BF16" = 1 ] || check "[ '$ch' = fp32 ]" "auto is fp32 where bf16 is not available (it chose $ch)"
# the default is deterministic (issue 48): auto decides by the CPU's
# instructions, never by a timing that load could tip: no rates in its
# reason; bf16 wherever the CPU runs bf16 products, fp32 where oneDNN is
# kept below them
check "grep -q '^gcn-train: precision auto: .*oneDNN' $T/auto.err && ! grep -q 'GFLOP/s' $T/auto.err" \
	"auto decides by the CPU's instructions, not by a timing: $(grep 'precision auto' "$T/auto.err")"
if [ "$BF16" = 1 ] && sh "$TOP/mk/cpu-bf16.sh" >/dev/null; then
	check "[ '$ch' = bf16 ]" "auto is bf16 on a CPU with bf16 instructions (it chose $ch)"
fi
expect 0 "env ONEDNN_MAX_CPU_ISA=AVX2 gcn-train -j 2 --hidden 64 --epochs 1 --batch 4 --validation 6 -o /dev/null $T/g.gs 2>$T/auto2.err"
check "grep -q '^gcn-train: precision auto: fp32: ' $T/auto2.err && ! grep -q 'GFLOP/s' $T/auto2.err" \
	"auto is fp32 where oneDNN is kept below bf16 (ONEDNN_MAX_CPU_ISA=AVX2), without a timing"
# -p given as --prec=X is replaced in the pg record, not repeated
expect 0 "gcn-train $TR -s 1 --prec=$HI -t -o $T/m-abbr.txt $T/g.gs"
check "[ \$(grep '^@pg .*prog=gcn-train' $T/m-abbr.txt | grep -o -- '--prec' | wc -l) = 1 ]" \
	"an abbreviated --prec=$HI is recorded once, as --precision $HI"

# gcn-adapt: its predictions say the precision used
expect 0 "dcbm-gen -q -s 9 --count 1 --nodes 400 --clusters 3 --p-div-q 6 -o $T/one.gs"
expect 0 "gcn-adapt -q -j 2 --precision $HI --model $T/m-$HI.txt --label cluster --runs 1 --val 50 \
	--test 100 --train-per-class 5 --epochs 5 -t -o $T/pred.txt $T/one.gs"
check "grep -q '^@tensor .*name=predictions.* precision=$HI' $T/pred.txt && grep '^@pg .*prog=gcn-adapt' $T/pred.txt | grep -q -- '--precision $HI '" \
	"gcn-adapt's predictions and pg record say $HI"

# ---- without bf16: --precision bf16 is refused in one line ----
if [ "$BF16" = 0 ]; then
	if grep -q '^DNNL_CPPFLAGS = -DGNN_DNNL' "$TOP/build/optional.mk" 2>/dev/null; then
		why="bf16 is not available: oneDNN has no bf16 matrix product for this CPU"
	else
		why="bf16 is not available: built without oneDNN"
	fi
	expect_err 1 "gcn-train $TR --precision bf16 -o $T/x.gs $T/g.gs" "gcn-train: --precision bf16: $why"
	check "[ ! -e $T/x.gs ]" "no model written"
	expect_err 1 "gcn-adapt -q --precision bf16 --model $T/m-fp32.txt --label cluster -o $T/x.gs $T/one.gs" \
		"gcn-adapt: --precision bf16: $why"
	check "[ ! -e $T/x.gs ]" "no predictions written"
	skip "precision.test.sh: the bf16 runs (recorded, reproducible, within fp32's noise): $BF16_WHY"
	return 0 2>/dev/null || exit 0
fi
check "! cmp -s $T/m-fp32.txt $T/m-bf16.txt" "bf16 and fp32 train different parameters (bf16 was used)"

# ---- a short training: bf16 within the fp32 runs' noise ----
# Four seeds in each precision (the same seeds: the same initial values and
# masks).  The tolerance: the difference of the two means of val.score must
# be within 3 standard errors of a difference of means, sd * sqrt(2 / n),
# sd the fp32 runs' seed-to-seed standard deviation (the run's noise); the
# pairing by seed only makes the true difference smaller.
for s in 1 2 3 4; do
	for p in fp32 bf16; do
		[ "$s" = 1 ] && continue	# made above
		expect 0 "gcn-train $TR -s $s --precision $p -t -o $T/m-$p-$s.txt $T/g.gs"
	done
done
cp "$T/m-fp32.txt" "$T/m-fp32-1.txt"
cp "$T/m-bf16.txt" "$T/m-bf16-1.txt"
for p in fp32 bf16; do
	for s in 1 2 3 4; do attr "$T/m-$p-$s.txt" val.score; done >"$T/scores-$p"
done
check "[ \$(grep -c '^0\.[0-9]' $T/scores-fp32) = 4 ] && [ \$(grep -c '^0\.[0-9]' $T/scores-bf16) = 4 ]" \
	"every run has a validation score"
paste "$T/scores-fp32" "$T/scores-bf16" >"$T/scores"
awk '{ n++; a += $1; b += $2; aa += $1 * $1 }
	END { ma = a / n; mb = b / n; sd = sqrt((aa - n * ma * ma) / (n - 1));
	      se = sd * sqrt(2 / n);
	      printf "fp32 mean %.4f sd %.4f, bf16 mean %.4f, |difference| %.4f, 3 se %.4f\n",
		ma, sd, mb, (mb > ma ? mb - ma : ma - mb), 3 * se }' "$T/scores" >"$T/noise.txt"
check "awk '{ n++; a += \$1; b += \$2; aa += \$1 * \$1 }
	END { ma = a / n; mb = b / n; sd = sqrt((aa - n * ma * ma) / (n - 1)); d = mb - ma;
	      if (d < 0) d = -d; exit !(sd > 0 && d <= 3 * sd * sqrt(2 / n)) }' $T/scores" \
	"bf16's mean validation score within the fp32 runs' noise ($(cat "$T/noise.txt"))"
echo "precision.test.sh: val.score over 4 seeds: $(cat "$T/noise.txt")"
