# mpi.test.sh - gcn-train under MPI (gcn-train(1), MPI), 2 and 3 processes
# on this machine: the model is the same parameters as one process's with
# --reduce graph, and within the stated tolerance of the default --reduce
# batch, and says how many processes made it; processes that differ in a
# setting or in their input are refused before training, in one line; a
# rank that fails, is killed or is stopped ends the run with one line, and
# leaves the last checkpoint whole, from which the run resumes to the same
# model.  Every run is under timeout(1), so a hang is a failure, not a
# stuck suite.  Skipped, with a line that says so, where mpirun or
# gcn-train's MPI is missing (.ci/run installs Open MPI).
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
# -q: mpirun adds nothing to the ranks' own lines; root runs only when asked;
# timeout: a run that hangs fails (exit 124) after 10 minutes, a long time
# for these runs of a few seconds (20 s for those that wait for a stopped
# rank) even on a loaded machine
MPIRUN="timeout 600 mpirun -q --oversubscribe"
[ "$(id -u)" -ne 0 ] || MPIRUN="$MPIRUN --allow-run-as-root"

# 20 labelled graphs, 6 a step: 16 train (2 steps an epoch), 4 validate
dcbm-gen -q -s 5 --count 20 --nodes 40..120 | centrality -q >"$T/lab.gs"
# (in fp32: runs are compared below, and auto's choice is a timing)
cat >"$T/t.yaml" <<'EOF'
model:
  hidden: 16
  rank_hidden: 16
  attention_hidden: 16
train:
  lr: 0.002
  batch_graphs: 6
  validation_graphs: 4
  precision: fp32
EOF
TRAIN="gcn-train -q -j 1 --config ../t.yaml --epochs 10"	# 20 steps

# mpi_fail CODE 'command' 'text' DESCRIPTION: the command (an mpirun) exits
# with CODE (any failure: 0), stderr is one 'gcn-train: ' line holding text
# (Open MPI may add its own, "[host:pid] Read -1, expected N, errno = 3",
# from a process that read from one that had ended before the launcher
# ended it: a race, sometimes)
OMPI_LINE='^\[[^]]*:[0-9]*\] '
mpi_fail() {
	sh -c "$2" >/dev/null 2>"$T/fail.err"
	_rc=$?
	check "[ $_rc -ne 0 ] && { [ $1 -eq 0 ] || [ $_rc -eq $1 ]; } &&
		[ \$(grep -vc '$OMPI_LINE' $T/fail.err) -eq 1 ] && grep -q '^gcn-train: .*$3' $T/fail.err" \
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
# a model without the attribute that says how many processes made it (and
# without the trailer's checksum, which covers it)
# (nodefeat's own pg record names its input: the same name in every directory)
model_body() {
	(cd "${1%/*}" && nodefeat -q -t "${1##*/}") | grep -v '^@end' | sed 's/ processes=[0-9]*//'
}
for n in 1 2 3; do
	model_body "$T/np$n/m.gs" >"$T/np$n/m.body"
	check "nodefeat -q -t $T/np$n/m.gs | grep -q '^@model name=gcn-pretrain .* processes=$n reduce=graph'" \
		"$n processes: the model says processes=$n reduce=graph"
done
for n in 2 3; do
	same "$T/np1/m.body" "$T/np$n/m.body" \
		"$n processes: the model of one process (--reduce graph), but for processes="
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
# provenance: the two models differ in their bytes, and say so where a
# reader looks (the model record, the command line of the pg record)
check "grep -q '^@model name=gcn-pretrain .* processes=1 reduce=batch' $T/batch/m.gs &&
	grep -q '^@model name=gcn-pretrain .* processes=2 reduce=graph' $T/np2/mt.gs" \
	"the model records the processes and the reduction: 1 and batch, 2 and graph"
check "grep -q '^@pg .*prog=gcn-train .*cmd=\"gcn-train --reduce graph ' $T/np2/mt.gs &&
	! grep '^@pg .*prog=gcn-train' $T/batch/m.gs | grep -q reduce" \
	"several processes: the pg record's command line says --reduce graph"
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
	"rank 1: features: .*exit 3" "a rank that fails ends the run with its line, from rank 0"
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
# the run ends, not hangs, the checkpoint is whole, and one line says why:
# rank 0's (the launcher ends it with SIGTERM), or, when rank 0 itself was
# killed, rank 1's.  The wrapper keeps its own messages to itself, and
# outlives the program: the launcher ends a run by signalling each
# process's group, SIGCONT, then SIGTERM, then SIGKILL, a second apart
# (odls_base_sigkill_timeout), and a wrapper that died at SIGTERM made it
# kill the rest of the group then, a program that had been stopped among
# it, which on a loaded machine may not have run yet (and its temporary
# file was left behind).  The launcher waits 3 s between its steps here,
# not 1: a process signalled on a loaded machine may wait that long for a
# CPU, and these checks need what it does on SIGTERM (each second more
# costs two of the test's).
cat >"$T/kill.sh" <<'EOF'
rank=$1 sig=$2 ck=$3
shift 3
[ "${OMPI_COMM_WORLD_RANK:-0}" = "$rank" ] || exec "$@"
"$@" &
pid=$!
exec 2>/dev/null
trap : INT TERM HUP
while [ ! -e "$ck" ] && kill -0 $pid; do sleep 0.05; done
kill -$sig $pid
while :; do
	wait $pid
	rc=$?
	kill -0 $pid || exit $rc
done
EOF
for r in 1 0; do
	mkdir -p "$T/kill$r"
	(cd "$T/kill$r" && OMPI_MCA_odls_base_sigkill_timeout=3 $MPIRUN -np 2 sh ../kill.sh $r KILL ck.gs \
		gcn-train -q -j 1 --config ../t.yaml --epochs 1000 --checkpoint ck.gs -o m.gs ../lab.gs) \
		>/dev/null 2>"$T/kill$r/err"
	rc=$?
	check "[ $rc -ne 0 ] && [ $rc -ne 124 ]" "killed rank $r: the run ends (exit $rc; 124: it hung)"
	check "[ ! -e $T/kill$r/m.gs ] &&
		nodefeat -q -t $T/kill$r/ck.gs | grep -q '^@model name=gcn-pretrain-checkpoint .* epoch=[1-9]'" \
		"killed rank $r: no model, and the last checkpoint is whole"
done
check "! ls $T/kill1 | grep -q tmp" "killed rank 1: rank 0 removes its temporary file"
# one line of gcn-train's, and maybe Open MPI's (mpi_fail)
one_line() {
	[ "$(grep -c '^gcn-train: ' "$1")" -eq 1 ] && grep -q "^gcn-train: $2" "$1" &&
		! grep -v "^gcn-train: \|$OMPI_LINE" "$1" | grep -q .
}
one_line $T/kill1/err 'ended by the launcher (SIGTERM) [a-z ]*step [0-9]* (epoch [0-9]*; ck.gs holds epoch [0-9]*): another process ended'
check "[ $? -eq 0 ]" "killed rank 1: one line from rank 0: $(head -c 300 $T/kill1/err)"
one_line $T/kill0/err 'rank 1: rank 0 ended (killed?) '
check "[ $? -eq 0 ]" "killed rank 0: one line from rank 1: $(head -c 300 $T/kill0/err)"

# -- a rank that is stopped (SIGSTOP) waits for nothing: past --mpi-timeout
# of waiting in a collective, rank 0 says which rank is stopped and ends
# the run; when rank 0 is the one stopped, rank 1 says so 5 s later.  The
# stopped process ends silently when the launcher wakes it, removing its
# temporary files.  10 s: far above any wait of these runs.  As above, the
# launcher waits 3 s between its steps when rank 0 is the one stopped
# (rank 1, stopped, has nothing to say or remove).
for r in 1 0; do
	mkdir -p "$T/stop$r"
	slow=""
	[ $r -ne 0 ] || slow="OMPI_MCA_odls_base_sigkill_timeout=3"
	mpi_fail 1 "cd $T/stop$r && $slow $MPIRUN -np 2 sh ../kill.sh $r STOP ck.gs gcn-train -q -j 1 \
		--config ../t.yaml --epochs 1000 --mpi-timeout 10 --checkpoint ck.gs -o m.gs ../lab.gs" \
		"no word from the other processes for [0-9]* s [a-z ]*step [0-9]* (epoch [0-9]*; ck.gs holds epoch [0-9]*) (rank $r is stopped); ending the run (--mpi-timeout)" \
		"stopped rank $r: one line, exit 1"
	check "[ ! -e $T/stop$r/m.gs ] && ! ls $T/stop$r | grep -q tmp &&
		nodefeat -q -t $T/stop$r/ck.gs | grep -q '^@model name=gcn-pretrain-checkpoint .* epoch=[1-9]'" \
		"stopped rank $r: no model, no temporary file, the last checkpoint whole (stderr: $(head -c 300 "$T/fail.err"))"
done
check "grep -q '^gcn-train: rank 1: no word' $T/fail.err" "stopped rank 0: rank 1 says it"
# a rank stopped for less than the timeout, then continued: the run goes on
# to the model of a run that never stopped (the pg record leaves out
# --mpi-timeout, which cannot change the model).  60 s: a stop of 3 s is
# far below it, however slow the machine (the run does not wait for it).
cat >"$T/pause.sh" <<'EOF'
[ "${OMPI_COMM_WORLD_RANK:-0}" = 1 ] || exec "$@"
"$@" &
pid=$!
while [ ! -e ck.gs ] && kill -0 $pid 2>/dev/null; do sleep 0.05; done
kill -STOP $pid
sleep 3
kill -CONT $pid
wait $pid
EOF
mkdir -p "$T/pause" "$T/nopause"
expect 0 "cd $T/pause && $MPIRUN -np 2 sh ../pause.sh $TRAIN --precision fp32 --mpi-timeout 60 \
	--checkpoint ck.gs -o m.gs ../lab.gs"
expect 0 "cd $T/nopause && $MPIRUN -np 2 $TRAIN --precision fp32 --checkpoint ck.gs -o m.gs ../lab.gs"
same "$T/pause/m.gs" "$T/nopause/m.gs" "a rank stopped for 3 s, then continued: the model of a run without the stop"

# -- processes that differ: each case made a deadlock, MPI_ERR_TRUNCATE
# (exit 15 without a word under -q, a temporary file left), a hang after
# the model, or a model that differs without a word.  Rank 1 gets other
# options or input (mpirun's MPMD form); the run ends before training, in
# one line from rank 0, with no file written.
dcbm-gen -q -s 6 --count 20 --nodes 40..120 | centrality -q >"$T/lab-other.gs"
dcbm-gen -q -s 5 --count 16 --nodes 40..120 | centrality -q >"$T/lab-16.gs"	# lab.gs's first 16
mkdir -p "$T/agree"
differ() {
	mpi_fail 1 "cd $T/agree && $MPIRUN -np 1 $TRAIN -o m.gs ../lab.gs : -np 1 $TRAIN $1 -o m.gs" \
		"rank 1: $2" "rank 1 with $1"
	check "[ -z \"\$(ls $T/agree)\" ]" "rank 1 with $1: no file written"
}
differ "../lab-other.gs" "its input differs from rank 0.s at graph 1 (id 0)$"
differ "../lab-16.gs" "its input has 16 graphs, rank 0.s 20$"
differ "--hidden 8 ../lab.gs" "--hidden (model.hidden) 8 differs from rank 0.s 16$"
differ "--batch 5 ../lab.gs" "--batch (train.batch_graphs) 5 differs from rank 0.s 6$"
differ "--validation 3 ../lab.gs" "--validation (train.validation_graphs) 3 differs from rank 0.s 4$"
differ "-s 2 ../lab.gs" "-s (seed) 2 differs from rank 0.s 0$"
differ "--lr 0.01 ../lab.gs" "--lr (train.lr) 0.01 differs from rank 0.s 0.002$"
differ "--tasks rec,rank ../lab.gs" "--tasks (tasks) \"rec,rank\" differs from rank 0.s \"rec,rank,cluster\"$"
differ "--epochs 11 ../lab.gs" "--epochs (train.epochs) 11 differs from rank 0.s 10$"
differ "-j 2 ../lab.gs" "-j 2 differs from rank 0.s 1$"
# rank 1 alone with a usage error: rank 1 says it (it said nothing, and
# rank 0 waited in MPI_Init until the launcher ended it)
mpi_fail 2 "cd $T/agree && $MPIRUN -np 1 $TRAIN -o m.gs ../lab.gs : -np 1 $TRAIN --bogus -o m.gs ../lab.gs" \
	"rank 1: unknown option .--bogus.; usage: gcn-train" "rank 1 alone with a usage error"
# the same graphs under another name, uncompressed, pass
gzip -dc "$T/lab.gs" >"$T/lab-plain.gs"
expect 0 "cd $T/agree && $MPIRUN -np 1 $TRAIN --steps 2 -o m.gs ../lab.gs : -np 1 $TRAIN --steps 2 \
	-o m.gs ../lab-plain.gs"
rm -f "$T/agree/m.gs"

# -- misuse: said once
mpi_fail 2 "cd $T && $MPIRUN -np 2 gcn-train -q --config t.yaml lab.gs" "-o FILE" \
	"2 processes write the model to a file"
mpi_fail 2 "$MPIRUN -np 2 gcn-train --hidden 0 -o m.gs lab.gs" "--hidden" "a usage error"
mpi_fail 2 "cd $T && $MPIRUN -np 2 gcn-train -q --reduce batch -o m.gs lab.gs" \
	"2 processes: --reduce batch is one process.s step" "--reduce batch, ignored before, is refused"
mpi_fail 1 "cd $T && $MPIRUN -np 2 gcn-train -q -o m.gs t.yaml" "t.yaml" "a bad input"
check "$MPIRUN -np 2 gcn-train -h >$T/h.out && [ \$(grep -c '^usage: gcn-train' $T/h.out) -eq 1 ]" \
	"-h: the usage once, status 0"
