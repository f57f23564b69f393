# determinism.test.sh - a short pipeline run twice with the same seeds must
# give the same bytes: every stage on a rerun, and the graph stages with -j 1
# and -j 2 as well (the training stages' BLAS sums may change in the last
# bits with another thread count; see docs/choices.md, "Models depend on
# the thread count").  -j is on the command line, which the provenance records hold,
# so the -j comparison leaves the pg records out.
T="$TMPD/det"
mkdir -p "$T"

# the stages, as scripts (expect runs its command in a new shell)
cat >"$T/stages.sh" <<'EOS'
set -e
j=$1
dcbm-gen -q -j $j -s 4 --count 16 --nodes 80..400 -o g.gs
centrality -q -j $j -o c.gs g.gs
mask-edges -q -j $j -s 5 -o m.gs c.gs
nodefeat -q -j $j -t -o f.gs m.gs
dcbm-gen -q -j $j -s 6 --count 1 --nodes 1500 --mean-degree 12 -l 0 |
	centrality -q -j $j -t -l 0 | nodefeat -q -j $j -t -o big.gs
EOS
cat >"$T/train.sh" <<'EOS'
set -e
gcn-train -q -j $1 -s 7 --precision $2 --hidden 16 --epochs 2 --batch 4 --validation 4 -o model.gs \
	../a1/c.gs
dcbm-gen -q -s 9 --count 1 --nodes 400 --clusters 3 --p-div-q 6 -o one.gs
gcn-adapt -q -j $1 -s 8 --precision $2 --model model.gs --label cluster --runs 2 --val 50 --test 100 \
	--train-per-class 5 --epochs 10 -o pred.gs one.gs
evalf1 -o f1.txt pred.gs
EOS

for d in a1 b1; do
	mkdir -p "$T/$d"
	expect 0 "cd $T/$d && sh ../stages.sh 1"
done
mkdir -p "$T/a2"
expect 0 "cd $T/a2 && sh ../stages.sh 2"
# the text form of every record but the pg records
strip() { nodefeat -q -t "$1" | grep -v '^@pg\|^@end' | sed 's/ pg=[0-9a-f]*//'; }
for f in g c m f big; do
	same "$T/a1/$f.gs" "$T/b1/$f.gs" "$f.gs: same bytes on a rerun"
	strip "$T/a1/$f.gs" >"$T/$f.1"
	strip "$T/a2/$f.gs" >"$T/$f.2"
	check "[ -s $T/$f.1 ]" "$f.gs: read back"
	same "$T/$f.1" "$T/$f.2" "$f.gs: same records with -j 1 and -j 2"
done
bf16_probe "$T"
precs=fp32
if [ "$BF16" = 1 ]; then
	precs="fp32 bf16"
else
	skip "determinism.test.sh: the training stages' reruns in bf16: $BF16_WHY"
fi
for prec in $precs; do
	for n in 1 2; do
		a="$T/t$n-$prec" b="$T/u$n-$prec"
		mkdir -p "$a" "$b"
		expect 0 "cd $a && sh $T/train.sh $n $prec && cd $b && sh $T/train.sh $n $prec"
		for f in model.gs pred.gs f1.txt; do
			same "$a/$f" "$b/$f" "$f: same bytes on a rerun with $n thread(s) in $prec"
		done
	done
done
