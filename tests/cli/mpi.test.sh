# mpi.test.sh - gcn-train under MPI (gcn-train(1), MPI), 2 and 3 processes
# on this machine: the model is the same bytes as one process's with
# --reduce graph, and within the stated tolerance of the default --reduce
# batch; a rank that fails ends the run with one line, a rank that is
# killed ends it too, and both leave the last checkpoint whole, from which
# the run resumes to the same model.  Skipped, with a line that says so,
# where mpirun or gcn-train's MPI is missing (.ci/run installs Open MPI).
T="$TMPD/mpi"
mkdir -p "$T"

if ! command -v mpirun >/dev/null 2>&1; then
	echo "mpi.test.sh: no mpirun (Debian: openmpi-bin libopenmpi-dev, then make); skipped"
	return 0
fi
if gcn-train -h | grep -q '^  MPI: not built in'; then
	echo "mpi.test.sh: gcn-train is built without MPI (libopenmpi-dev, then make); skipped"
	return 0
fi
# -q: mpirun adds nothing to the ranks' own lines; root runs only when asked
MPIRUN="mpirun -q --oversubscribe"
[ "$(id -u)" -ne 0 ] || MPIRUN="$MPIRUN --allow-run-as-root"

# 20 labelled graphs, 6 a step: 16 train (2 steps an epoch), 4 validate
dcbm-gen -q -s 5 --count 20 --nodes 40..120 | centrality -q >"$T/lab.gs"
cat >"$T/t.yaml" <<'EOF'
model:
  hidden: 16
  rank_hidden: 16
  attention_hidden: 16
train:
  lr: 0.002
  batch_graphs: 6
  validation_graphs: 4
EOF
TRAIN="gcn-train -q -j 1 --config ../t.yaml --epochs 10"	# 20 steps

# mpi_fail CODE 'command' 'text' DESCRIPTION: the command (an mpirun) exits
# with CODE (any failure: 0), stderr is one 'gcn-train: ' line holding text
mpi_fail() {
	sh -c "$2" >/dev/null 2>"$T/fail.err"
	_rc=$?
	check "[ $_rc -ne 0 ] && { [ $1 -eq 0 ] || [ $_rc -eq $1 ]; } &&
		[ \$(wc -l <$T/fail.err) -eq 1 ] && grep -q '^gcn-train: .*$3' $T/fail.err" \
		"$4: exit $_rc, want ${1#0} and one line with '$3': $(head -c 300 "$T/fail.err")"
}



# -- the same bytes for 1, 2 and 3 processes (the input on stdin, which
# rank 0 alone gets from mpirun); the checkpoints and logs too
for n in 1 2 3; do
	mkdir -p "$T/np$n"
	run="$TRAIN --reduce graph --checkpoint ck.gs --log log.tsv -o m.gs <../lab.gs"
	[ $n -eq 1 ] || run="$MPIRUN -np $n $run"
	expect 0 "cd $T/np$n && $run"
done
for n in 2 3; do
	same "$T/np1/m.gs" "$T/np$n/m.gs" "$n processes: the model of one process (--reduce graph)"
	same "$T/np1/ck.gs" "$T/np$n/ck.gs" "$n processes: the checkpoint of one process"
	check "cut -f 1,2,4- $T/np1/log.tsv >$T/l1 && cut -f 1,2,4- $T/np$n/log.tsv | cmp -s - $T/l1" \
		"$n processes: the log of one process but for the seconds"
done
check "[ \$(wc -l <$T/np2/log.tsv) -eq 11 ]" "rank 0 alone writes the log: one line an epoch"

# -- against one process's default pass over the whole batch: another order
# of the same sums.  After 20 steps the epochs' training losses agree to
# 1e-4 (relative), and each parameter tensor to 1e-3 of its largest value;
# rank.b1, rank.b2 and cluster.out.b, whose gradients cancel exactly or
# nearly (S_u - S_v, the softmax over clusters), are moved by rounding
# noise that Adam scales up to lr a step, and are bounded by lr x steps.
# In fp32: in bf16 a graph's products and the batch's are rounded where
# their sizes choose (gemm_bf16_worth), which is another difference.
mkdir -p "$T/batch"
expect 0 "cd $T/batch && $TRAIN --precision fp32 --checkpoint ck.gs -t --log log.tsv -o m.gs ../lab.gs"
expect 0 "cd $T/np2 && $MPIRUN -np 2 $TRAIN --precision fp32 --checkpoint ckt.gs -t --log logt.tsv \
	-o mt.gs ../lab.gs"
check "awk -F '\t' 'FNR == 1 { f++; next } { for (i = 4; i <= 6; i++) if (f == 1) a[FNR, i] = \$i;
	else { d = a[FNR, i] - \$i; if (d < 0) d = -d; if (d > 1e-4 * a[FNR, i] + 1e-6) exit 1 } }' \
	$T/batch/log.tsv $T/np2/logt.tsv" "2 processes: the training losses of one process's batch pass"
# the current parameters of two text checkpoints: per tensor, the largest
# difference over the largest value
cat >"$T/cmp.awk" <<'EOF'
FNR == 1 { f++ }
/^@/ { name = ""; if ($1 == "@param") { sub(/^name=/, "", $2); name = $2 } next }
name != "" && name !~ /^state\./ {
	for (i = 1; i <= NF; i++) {
		k = name SUBSEP (++cnt[f, name])
		if (f == 1) a[k] = $i; else b[k] = $i
	}
	names[name] = 1
}
END {
	bad = 0
	for (n in names) {
		mx = 0; md = 0
		for (i = 1; i <= cnt[1, n]; i++) {
			k = n SUBSEP i; x = a[k] < 0 ? -a[k] : a[k]; d = a[k] - b[k]
			if (d < 0) d = -d
			if (x > mx) mx = x
			if (d > md) md = d
		}
		if (cnt[1, n] != cnt[2, n]) { print n ": sizes differ"; bad = 1 }
		else if (n ~ /^(rank\.b[12]|cluster\.out\.b)$/) {
			if (md > lr * steps) { print n ": " md " > lr x steps"; bad = 1 }
		} else if (md > 1e-3 * mx) { print n ": " md " > 1e-3 x " mx; bad = 1 }
	}
	exit bad
}
EOF
check "awk -v lr=0.002 -v steps=20 -f $T/cmp.awk $T/batch/ck.gs $T/np2/ckt.gs" \
	"2 processes: the parameters of one process's batch pass, within the tolerance"

# -- a rank that fails: a feature stage that fails in rank 1 from its 8th
# call (its setup's, then one a step and one for its share of each
# validation: step 5, in epoch 3, after the checkpoints of epochs 1 and 2)
# ends the run with rank 1's line
cat >"$T/feat.sh" <<'EOF'
r=${OMPI_COMM_WORLD_RANK:-0}
n=$(($(cat "$1/calls.$r" 2>/dev/null || echo 0) + 1))
echo $n >"$1/calls.$r"
if [ "$r" = 1 ] && [ $n -ge 8 ] && [ -e "$1/fail" ]; then
	cat >/dev/null
	exit 3
fi
exec nodefeat -q -l 0
EOF
mkdir -p "$T/die"
FEAT="--features 'sh $T/feat.sh $T/die'"
touch "$T/die/fail"
mpi_fail 1 "cd $T/die && $MPIRUN -np 2 $TRAIN $FEAT --checkpoint ck.gs -o m.gs ../lab.gs" \
	"exit 3" "a rank that fails ends the run with its line"
check "[ ! -e $T/die/m.gs ] && ! ls $T/die | grep -q tmp" "no model written, no temporary file left"
check "nodefeat -q -t $T/die/ck.gs | grep -q '^@model name=gcn-pretrain-checkpoint .* epoch=2 step=4 '" \
	"the checkpoint of epoch 2 is whole"
# resumed, the run ends with the model of a run that never failed
rm -f "$T/die/fail" "$T/die"/calls.*
expect 0 "cd $T/die && $MPIRUN -np 2 $TRAIN $FEAT --resume ck.gs -t -o resumed.gs ../lab.gs"
rm -f "$T/die"/calls.*
expect 0 "cd $T/die && $MPIRUN -np 2 $TRAIN $FEAT -t -o whole.gs ../lab.gs"
check "grep -v '^@pg\|^@end' $T/die/resumed.gs | sed 's/ pg=[0-9a-f]*//' >$T/die/r.body &&
	grep -v '^@pg\|^@end' $T/die/whole.gs | sed 's/ pg=[0-9a-f]*//' | cmp -s - $T/die/r.body" \
	"resumed from the checkpoint: the model of the run without the failure"

# -- a rank that is killed (SIGKILL, once the first checkpoint is there):
# the run ends, not hangs, and the checkpoint is whole
cat >"$T/kill.sh" <<'EOF'
ck=$1
shift
[ "${OMPI_COMM_WORLD_RANK:-0}" = 1 ] || exec "$@"
"$@" &
pid=$!
while [ ! -e "$ck" ] && kill -0 $pid 2>/dev/null; do sleep 0.05; done
kill -9 $pid
EOF
mkdir -p "$T/kill"
(cd "$T/kill" && timeout 120 $MPIRUN -np 2 sh ../kill.sh ck.gs \
	gcn-train -q -j 1 --config ../t.yaml --epochs 1000 --checkpoint ck.gs -o m.gs ../lab.gs) \
	>/dev/null 2>"$T/kill/err"
rc=$?
check "[ $rc -ne 0 ] && [ $rc -ne 124 ]" "a killed rank ends the run (exit $rc; 124: it hung)"
check "[ ! -e $T/kill/m.gs ] && ! ls $T/kill | grep -q tmp &&
	nodefeat -q -t $T/kill/ck.gs | grep -q '^@model name=gcn-pretrain-checkpoint .* epoch=[1-9]'" \
	"no model, no temporary file, and the last checkpoint is whole"

# -- misuse: said once
mpi_fail 2 "cd $T && $MPIRUN -np 2 gcn-train -q --config t.yaml lab.gs" "-o FILE" \
	"2 processes write the model to a file"
mpi_fail 2 "$MPIRUN -np 2 gcn-train --hidden 0 -o m.gs lab.gs" "--hidden" "a usage error"
mpi_fail 1 "cd $T && $MPIRUN -np 2 gcn-train -q -o m.gs t.yaml" "t.yaml" "a bad input"
check "$MPIRUN -np 2 gcn-train -h >$T/h.out && [ \$(grep -c '^usage: gcn-train' $T/h.out) -eq 1 ]" \
	"-h: the usage once, status 0"
