# clones.test.sh - the versions of the loops around the products
# (GEMM_CLONES in common/gemm.h: AVX-512, AVX2 and the baseline x86-64)
# give the same bytes in the programs: a gcn-train model and gcn-adapt's
# predictions, in fp32 and in bf16, made with each version this CPU has
# (GNN_MAX_CPU_ISA holds a program to a version), are the baseline's.  A
# version the CPU lacks, the portable build (make CLONES=no: the baseline
# alone) and bf16 where it is not available are skipped with a line
# saying so.  tests/unit/test_clones.c compares each loop alone.
T="$TMPD/clones"
mkdir -p "$T"
expect 0 "dcbm-gen -q -s 11 --count 12 --nodes 100..250 | centrality -q -o $T/g.gs"
expect 0 "dcbm-gen -q -s 9 --count 1 --nodes 400 --clusters 3 --p-div-q 6 -o $T/one.gs"
# --hidden 64 and these graphs: the products are large enough for bf16
# (gemm_bf16_worth), so that bf16's loops run (the encoder's bf16 rows)
TR="-q -j 2 -s 1 --hidden 64 --epochs 2 --batch 4 --validation 4 --patience 100"
AD="-q -j 2 -s 2 --label cluster --runs 1 --val 50 --test 100 --train-per-class 5 --epochs 5"

# a bad value: one line in the program's name, exit 2, before its main
check "GNN_MAX_CPU_ISA=avx3 gcn-train $TR -o $T/x.gs $T/g.gs 2>$T/bad.err; [ \$? = 2 ] &&
	[ \"\$(cat $T/bad.err)\" = 'gcn-train: GNN_MAX_CPU_ISA=avx3: expected avx512f, avx2 or default' ] &&
	[ ! -e $T/x.gs ]" "GNN_MAX_CPU_ISA=avx3: exit 2, one line, no model"

bf16_probe "$T"
precs=fp32
[ "$BF16" = 1 ] && precs="fp32 bf16"
[ "$BF16" = 1 ] || skip "clones.test.sh: the bf16 runs: $BF16_WHY"

# the versions this CPU has besides the baseline (the operating system's
# flags: what it saves the registers of); none in the portable build
flags=$(sed -n 's/^flags[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
isas=""
if grep -qx no "$TOP/build/clones-flags" 2>/dev/null; then
	skip "clones.test.sh: the AVX2 and AVX-512 versions: the portable build (make CLONES=no) has the baseline alone"
elif [ -z "$flags" ]; then
	skip "clones.test.sh: the AVX2 and AVX-512 versions: no flags in /proc/cpuinfo to tell what this CPU has"
else
	for isa in avx2 avx512f; do
		case " $flags " in
		*" $isa "*) isas="$isas $isa" ;;
		*) skip "clones.test.sh: the $isa version: this CPU has no $isa" ;;
		esac
	done
fi

# each run in a directory of its own, the same relative paths: the pg
# records (the command line) are then the same bytes too
for isa in default $isas; do
	for p in $precs; do
		d=$T/$isa-$p
		mkdir -p "$d"
		expect 0 "cd $d && GNN_MAX_CPU_ISA=$isa gcn-train $TR --precision $p -t -o m.txt ../g.gs"
		expect 0 "cd $d && GNN_MAX_CPU_ISA=$isa gcn-adapt $AD --precision $p --model m.txt -t -o pred.txt \
			../one.gs"
		if [ "$isa" != default ]; then
			same "$T/default-$p/m.txt" "$d/m.txt" "$p: the $isa version trains the baseline's model"
			same "$T/default-$p/pred.txt" "$d/pred.txt" "$p: the $isa version adapts to the baseline's predictions"
		fi
	done
done
# the runs were what they say: bf16 trained something else than fp32
[ "$BF16" = 0 ] || check "! cmp -s $T/default-fp32/m.txt $T/default-bf16/m.txt" "bf16 and fp32 train different models"
