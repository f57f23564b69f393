# featcmd.test.sh - a feature command (issue 37): a model or config file
# runs nothing without the user's word on the command line; the built-in
# sets are names that need no shell; a command lives and dies with its
# program (signals passed on, a timeout, no orphans, no temporary file
# left, a bounded standard error in TMPDIR).  Sourced by run.sh with lib.sh.
#
# The waits poll for what they wait for, with generous limits (a loaded
# machine may take seconds to start a shell), and a wait that runs out is
# a failure of its own; a program that ignores a signal is killed after
# 60 s, so that it fails the test instead of hanging the suite.
T="$TMPD/featcmd"
mkdir -p "$T/tmp"
TMPDIR="$T/tmp"
export TMPDIR
TR="-j 2 --hidden 8 --epochs 2 --batch 4 -s 1 --precision fp32"
AD="-q -j 2 --runs 1 --epochs 3 --label cluster --train-per-class 5 --val 20 --test 50 -s 1"
MC="$TOP/tests/cli/modelcfg.awk"
cfg() { sed -n "s/^$1: //p" "$2"; }
# setcfg KEY VALUE < text-form model: the model with that config key set
setcfg() { awk -v key="$1" -v val="$2" -f "$MC"; }
# waitfor 'condition' SECONDS: poll every 0.1 s; 1 if it never held
waitfor() {
	_n=$(($2 * 10))
	while [ "$_n" -gt 0 ]; do
		sh -c "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}
# stop SIG PID: send the signal, wait for the program; its exit status in
# $rc (a program still running after 60 s is killed: 137)
stop() {
	kill -"$1" "$2"
	(_n=600; while [ $_n -gt 0 ] && kill -0 "$2" 2>/dev/null; do sleep 0.1; _n=$((_n - 1)); done
	 kill -9 "$2" 2>/dev/null) &
	_g=$!
	wait "$2" 2>/dev/null	# no "Terminated" from the shell
	rc=$?
	wait "$_g"
}
# started PIDFILE 'description': wait (2 minutes at most) for the command
# to write its pid; a failure if it never does
started() {
	waitfor "[ -s $1 ]" 120 || lib_bad "$2: the feature command did not start in 2 minutes (no $1)"
}
# gone PIDFILE 'description': the check that the process it names has
# ended (killed if not, so that a failing run leaves nothing behind)
gone() {
	_p=$(cat "$1" 2>/dev/null)
	if [ -n "$_p" ] && waitfor "! kill -0 $_p 2>/dev/null" 60; then
		lib_ok
	else
		lib_bad "$2 [pid '$_p' still runs]"
		[ -z "$_p" ] || kill -9 "$_p" 2>/dev/null
	fi
}

dcbm-gen -q -s 3 --count 24 --nodes 60..120 | centrality -q >"$T/lab.gs"
dcbm-gen -q -s 9 --count 1 --nodes 80 >"$T/g.gs"
dcbm-gen -q -s 9 --count 1 --nodes 300 >"$T/one.gs"
gcn-train -q $TR -t -o "$T/paper.txt" "$T/lab.gs"
gcn-train -q $TR --features 'nodefeat -l 1' -t -o "$T/cmd.txt" "$T/lab.gs"

# ---- a model file is data: its command runs only on the user's word ----
setcfg features.command "touch $T/ran; nodefeat -l 1" <"$T/cmd.txt" >"$T/evil.txt"
expect_err 1 "gcn-embed --model $T/evil.txt --tsv $T/g.gs" \
	"the model's feature stage is the command 'touch $T/ran; nodefeat -l 1', and a model file runs nothing by itself: give --features 'touch $T/ran; nodefeat -l 1' to run it, or --allow-features-command"
check "[ ! -e $T/ran ]" "gcn-embed: the model's command does not run without the user's word"
expect 0 "gcn-embed -q --model $T/evil.txt --allow-features-command --tsv $T/g.gs >$T/e1.tsv"
check "[ -e $T/ran ]" "gcn-embed: it runs with --allow-features-command"
rm -f "$T/ran"
expect 0 "gcn-embed -q --model $T/evil.txt --features 'touch $T/ran; nodefeat -l 1' --tsv $T/g.gs >$T/e2.tsv"
check "[ -e $T/ran ] && cmp -s $T/e1.tsv $T/e2.tsv" "gcn-embed: and when --features gives it"
rm -f "$T/ran"
expect_err 1 "gcn-adapt $AD --model $T/evil.txt -o $T/x.gs $T/one.gs" "or --allow-features-command"
check "[ ! -e $T/ran ] && [ ! -e $T/x.gs ]" "gcn-adapt: the model's command does not run without the user's word"
expect 0 "gcn-adapt $AD --model $T/evil.txt --allow-features-command -t --save-model $T/ad.txt -o $T/p.txt $T/one.gs"
check "[ -e $T/ran ] && [ '$(cfg features.stage "$T/ad.txt" 2>/dev/null)' = '\"command\"' ]" \
	"gcn-adapt: it runs with --allow-features-command, and the adapted model records it"
rm -f "$T/ran"
expect_err 1 "gcn-adapt --predict --model $T/ad.txt -o $T/x.gs $T/one.gs" "or --allow-features-command"
check "[ ! -e $T/ran ]" "gcn-adapt --predict: an adapted model's command does not run by itself"
expect 0 "gcn-adapt -q --predict --model $T/ad.txt --allow-features-command -o $T/x.gs $T/one.gs"
check "[ -e $T/ran ]" "gcn-adapt --predict: it runs with --allow-features-command"
rm -f "$T/ran" "$T/x.gs"
# the stage itself is a name, never taken for a command
setcfg features.stage "touch $T/ran" <"$T/cmd.txt" >"$T/evil-stage.txt"
# (the message quotes the value's first 60 bytes: the scratch path may be
# longer, so the check does not depend on where the tree is)
expect_err 1 "gcn-embed --allow-features-command --model $T/evil-stage.txt --tsv $T/g.gs" \
	"evil-stage.txt: features.stage: 'touch "
check "grep -q \"': expected paper, rwse, both, stream or command\$\" $LIB_ERR" \
	"a model's command stage is named, not run: $(head -c 300 "$LIB_ERR")"
check "[ ! -e $T/ran ]" "a model's features.stage is not run as a command"
# a model with no command to allow says so
expect 0 "gcn-embed --model $T/paper.txt --allow-features-command --tsv $T/g.gs >/dev/null 2>$T/w.err"
check "grep -q 'allow-features-command: the model records no command; nothing to allow' $T/w.err" \
	"--allow-features-command where there is nothing to allow is said"

# a config file is data too
printf 'features:\n  stage: command\n  command: "touch %s/ran; nodefeat -l 1"\n' "$T" >"$T/cmd.yaml"
expect_err 1 "gcn-train $TR --config $T/cmd.yaml -o $T/x.gs $T/lab.gs" \
	"cmd.yaml: features.command 'touch $T/ran; nodefeat -l 1': a config file runs nothing by itself: give --features"
check "[ ! -e $T/ran ] && [ ! -e $T/x.gs ]" "gcn-train: a config's command does not run without the user's word"
expect 0 "gcn-train -q $TR --config $T/cmd.yaml --allow-features-command -o $T/x.gs $T/lab.gs"
check "[ -e $T/ran ]" "gcn-train: it runs with --allow-features-command"
rm -f "$T/ran" "$T/x.gs"
# --resume takes a checkpoint's numbers, never its command
printf 'touch %s/ran; exec nodefeat -l 1\n' "$T" >"$T/mark.sh"
expect 0 "gcn-train -q $TR --epochs 1 --features 'sh $T/mark.sh' --checkpoint $T/ck.gs -o /dev/null $T/lab.gs"
rm -f "$T/ran"
expect 0 "gcn-train -q $TR --resume $T/ck.gs -o $T/x.gs $T/lab.gs"
check "[ ! -e $T/ran ]" "gcn-train --resume runs no command the checkpoint records"
rm -f "$T/x.gs"

# ---- the built-in sets are names: no shell, the command's values ----
expect 0 "gcn-train -q $TR --features rwse -t -o $T/rw.txt $T/lab.gs"
expect 0 "gcn-train -q $TR --features 'nodefeat -q --set rwse | cat' -t -o $T/rwc.txt $T/lab.gs"
check "[ '$(cfg features.stage "$T/rw.txt")' = '\"rwse\"' ] && [ '$(cfg features.command "$T/rw.txt")' = '\"\"' ] &&
	[ '$(cfg features.width "$T/rw.txt")' = 16 ] &&
	[ \"\$(grep -v '^features\.\|^@' $T/rw.txt | cksum)\" = \"\$(grep -v '^features\.\|^@' $T/rwc.txt | cksum)\" ]" \
	"--features rwse: recorded by name, the parameters of the command nodefeat --set rwse"
expect 0 "gcn-train $TR --features 'nodefeat -q --set rwse' -t -o $T/rwn.txt $T/lab.gs 2>$T/rwn.err"
check "grep -q \"features: 'nodefeat -q --set rwse' is the built-in set rwse\" $T/rwn.err &&
	[ \"\$(grep -v '^@' $T/rwn.txt | cksum)\" = \"\$(grep -v '^@' $T/rw.txt | cksum)\" ]" \
	"a bare nodefeat invocation is the built-in set: said, and the same model"
expect 0 "gcn-train -q $TR --features nodefeat -t -o $T/nf.txt $T/lab.gs"
check "[ \"\$(grep -v '^@' $T/nf.txt | cksum)\" = \"\$(grep -v '^@' $T/paper.txt | cksum)\" ]" \
	"--features nodefeat is the built-in four"
# no shell and no nodefeat needed downstream; the command's values to the bit
expect 0 "env PATH=/nonexistent $BIN/gcn-embed --model $T/rw.txt --tsv $T/g.gs >$T/rw1.tsv 2>$T/rw1.err"
check "[ ! -s $T/rw1.err ]" "a model's own built-in stage, recorded by name, is no news: nothing on stderr"
expect 0 "gcn-embed -q --model $T/rw.txt --features 'nodefeat -q --set rwse | cat' --tsv $T/g.gs >$T/rw2.tsv"
check "cmp -s $T/rw1.tsv $T/rw2.tsv" "gcn-embed: the built-in rwse gives the command's embeddings"
# a model that records the invocation as a command is the built-in set
setcfg features.stage command <"$T/rw.txt" | setcfg features.command 'nodefeat -q --set rwse' >"$T/rwold.txt"
expect 0 "env PATH=/nonexistent $BIN/gcn-embed --model $T/rwold.txt --tsv $T/g.gs >$T/rw3.tsv 2>$T/rw3.err"
check "cmp -s $T/rw1.tsv $T/rw3.tsv && grep -q \"recorded as 'nodefeat -q --set rwse': computed built in\" $T/rw3.err" \
	"a recorded 'nodefeat -q --set rwse' runs no command: the built-in set, said"
expect 0 "gcn-adapt $AD --model $T/rw.txt -t -o $T/prw.txt $T/one.gs"
check "grep -q '^@tensor .* features=rwse ' $T/prw.txt" "gcn-adapt: the predictions name the built-in set"
# nodefeat --scale both (any thread count) is the built-in set both: the
# four min-max and three log columns, the command's values to the bit
expect 0 "gcn-train $TR --features 'nodefeat -q -j 2 --scale both' -t -o $T/bo.txt $T/lab.gs 2>$T/bo.err"
expect 0 "gcn-train -q $TR --features 'nodefeat -q --scale both | cat' -t -o $T/boc.txt $T/lab.gs"
check "grep -q \"features: 'nodefeat -q -j 2 --scale both' is the built-in set both\" $T/bo.err &&
	[ '$(cfg features.stage "$T/bo.txt")' = '\"both\"' ] && [ '$(cfg features.width "$T/bo.txt")' = 7 ] &&
	[ \"\$(grep -v '^features\.\|^@' $T/bo.txt | cksum)\" = \"\$(grep -v '^features\.\|^@' $T/boc.txt | cksum)\" ]" \
	"'nodefeat -q -j 2 --scale both' is the built-in set both: said, recorded by name, the command's model"
expect 0 "env PATH=/nonexistent $BIN/gcn-embed -q --model $T/bo.txt --tsv $T/g.gs >$T/bo1.tsv"
expect 0 "gcn-embed -q --model $T/bo.txt --features 'nodefeat -q --scale both | cat' --tsv $T/g.gs >$T/bo2.tsv"
check "cmp -s $T/bo1.tsv $T/bo2.tsv" "gcn-embed: the built-in both gives the command's embeddings"
setcfg features.stage command <"$T/bo.txt" | setcfg features.command 'nodefeat -q -j 4 --scale both' >"$T/boold.txt"
expect 0 "env PATH=/nonexistent $BIN/gcn-embed --model $T/boold.txt --tsv $T/g.gs >$T/bo3.tsv 2>$T/bo3.err"
check "cmp -s $T/bo1.tsv $T/bo3.tsv && grep -q \"recorded as 'nodefeat -q -j 4 --scale both': computed built in\" $T/bo3.err" \
	"a recorded 'nodefeat -q -j 4 --scale both' runs no command: the built-in set, said"

# ---- a command lives and dies with its program ----
# killed during a call: the command and what it started end too
# (SIGHUP where it is not ignored: under nohup the programs inherit it
# ignored, and keep ignoring it, as they should)
hup="HUP 129"
if [ "$(sh -c 'kill -HUP $$; echo ignored' 2>/dev/null)" = ignored ]; then
	echo "featcmd.test.sh: SIGHUP is ignored here (nohup?); gcn-adapt's case is sent SIGTERM"
	hup="TERM 143"
fi
for c in "gcn-embed TERM 143" "gcn-adapt $hup" "gcn-train TERM 143"; do
	set -- $c
	rm -f "$T/pid" "$T/o.gs"
	F="sleep 1000 & echo \$! >$T/pid; wait"
	case $1 in
	gcn-embed) gcn-embed --model "$T/paper.txt" --features "$F" -o "$T/o.gs" "$T/g.gs" 2>/dev/null & ;;
	gcn-adapt) gcn-adapt $AD --model "$T/paper.txt" --features "$F" -o "$T/o.gs" "$T/one.gs" 2>/dev/null & ;;
	gcn-train) gcn-train $TR --features "$F" -o "$T/o.gs" "$T/lab.gs" 2>/dev/null & ;;
	esac
	P=$!
	started "$T/pid" "$1: SIG$2 during a feature call"
	stop "$2" $P
	check "[ $rc = $3 ]" "$1: SIG$2 during a feature call: exit $3 (got $rc)"
	gone $T/pid "$1: SIG$2 ends the feature command and what it started"
	check "[ -z \"\$(ls -A $T | grep '^o\.gs')\" ]" "$1: no output or temporary file left"
done

# gcn-train: a signal during a call that hangs ends the run with the best
# model so far, exit 130 (SIGINT) or 143 (SIGTERM); no temporary file,
# no orphan; the batch's one pass and the pass per graph.  Calls: 1 learns the width, 2..6 are epoch 1's steps, 7 its
# validation, 8 the first step of epoch 2.
cat >"$T/hang.sh" <<'EOF'
# hang.sh DIR N: the Nth call hangs (its pid in DIR/pid), the others are nodefeat
n=$(($(cat "$1/n" 2>/dev/null || echo 0) + 1)); echo $n >"$1/n"
if [ "$n" -eq "$2" ]; then echo $$ >"$1/pid"; exec sleep 1000; fi
exec nodefeat -l 1
EOF
for c in "3 INT 130 1 0 batch" "7 TERM 143 5 0 batch" "8 INT 130 5 1 batch" \
	"3 TERM 143 1 0 graph" "7 INT 130 5 0 graph"; do
	set -- $c
	d="$T/hang$1$6"
	mkdir -p "$d"
	gcn-train $TR --epochs 5 --reduce $6 --features "sh $T/hang.sh $d $1" -o "$d/m.gs" \
		"$T/lab.gs" 2>"$d/err" &
	P=$!
	started "$d/pid" "gcn-train --reduce $6: SIG$2 during feature call $1"
	stop "$2" $P
	check "[ $rc = $3 ]" "gcn-train --reduce $6: SIG$2 during feature call $1: exit $3 (got $rc; $(tail -n 1 "$d/err"))"
	check "grep -q 'at step $4; writing the best model so far (epoch $5)' $d/err" \
		"gcn-train --reduce $6: SIG$2 during feature call $1: the best model so far (epoch $5)"
	check "gcn-embed -q --model $d/m.gs --features paper --tsv $T/g.gs >/dev/null && [ \"\$(ls -A $d)\" = \"\$(printf 'err\\nm.gs\\nn\\npid')\" ]" \
		"gcn-train --reduce $6: SIG$2 during feature call $1: the model is whole, no temporary file"
	gone $d/pid "gcn-train --reduce $6: SIG$2 during feature call $1: the command is ended"
done

# gcn-adapt's link task calls the stage in each run, with -o open: its
# temporary file goes too
dcbm-gen -q -s 5 --count 1 --nodes 200 -t | awk '/^@graph/ { g = 1; next } /^@/ { g = 0 } g { print $1, $2, 1 + ($1 + $2) % 3 }' >"$T/lk.el"
d="$T/hanglink"
mkdir -p "$d"
gcn-adapt -q -j 2 --task link --model "$T/paper.txt" --runs 1 --epochs 2 --features "sh $T/hang.sh $d 2" \
	-o "$d/o.gs" "$T/lk.el" 2>"$d/err" &
P=$!
started "$d/pid" "gcn-adapt: SIGTERM during a run's feature call"
stop TERM $P
check "[ $rc = 143 ] && [ \"\$(ls -A $d)\" = \"\$(printf 'err\\nn\\npid')\" ]" \
	"gcn-adapt: SIGTERM during a run's feature call: exit 143, no output or temporary file (exit $rc: $(ls -A "$d" | tr '\n' ' '))"
gone $d/pid "gcn-adapt: SIGTERM during a run's feature call: the command is ended"

# interrupted runs keep what finished (issue 48): SIGTERM in run 3 of 10
# (its feature call, the stage's fourth, hangs): runs 1-2 written whole and
# marked partial, the model the best of them and saying so, exit 143;
# evalf1 says its input is partial
d="$T/hangpart"
mkdir -p "$d"
gcn-adapt -q -j 2 --task link --model "$T/paper.txt" --runs 10 --epochs 2 --features "sh $T/hang.sh $d 4" \
	--save-model "$d/m.txt" -t -o "$d/o.txt" "$T/lk.el" 2>"$d/err" &
P=$!
started "$d/pid" "gcn-adapt: SIGTERM in run 3 of 10"
stop TERM $P
check "[ $rc = 143 ] && grep -q '^gcn-adapt: terminated in run 3 of 10; writing the 2 finished runs (runs 1-2), marked partial (runs_done=2 of 10)' $d/err" \
	"gcn-adapt: SIGTERM in run 3 of 10: exit 143, the finished runs said (exit $rc: $(cat "$d/err"))"
check "[ \$(grep -c '^@tensor .*name=predictions' $d/o.txt) = 2 ] &&
	grep -q '^@tensor .*name=partial .*runs_done=2 runs=10 first_run=0 signal=SIGTERM' $d/o.txt" \
	"gcn-adapt: SIGTERM in run 3 of 10: the 2 runs' predictions, marked partial"
check "grep -q '^@model .*runs=0\\.\\.1 .*partial=' $d/m.txt && gcn-adapt -q --predict --model $d/m.txt --allow-features-command -o /dev/null $T/lk.el" \
	"gcn-adapt: SIGTERM in run 3 of 10: the model of the finished runs, whole, says so"
expect 0 "evalf1 -q $d/o.txt >/dev/null 2>$d/ev.err"
check "grep -q '^evalf1: $d/o.txt: partial: its runs were interrupted (SIGTERM) after 2 of 10 runs' $d/ev.err" \
	"evalf1: a partial input is said to be partial, whatever -q"
gone $d/pid "gcn-adapt: SIGTERM in run 3 of 10: the command is ended"

# a command whose child leaves its process group (setsid) and holds its
# output open (issue 48): the program stops reading CMDRUN_END_GRACE after
# the command's own process has ended, kills the escaped process and says
# so in one line, on success, on a timeout and on a signal.  The escaped
# process writes its pid (ESC) once it has left the group; the command
# waits for that before it goes on, so that it has left for certain.
# bounded 'command': run it (exec'd by sh) with a bound of 2 minutes; its
# exit status in $rc (137: it hung, and was killed)
bounded() {
	sh -c "exec $1" &
	_b=$!
	(_n=1200; while [ $_n -gt 0 ] && kill -0 "$_b" 2>/dev/null; do sleep 0.1; _n=$((_n - 1)); done
	 kill -9 "$_b" 2>/dev/null) &
	_g=$!
	wait "$_b"
	rc=$?
	wait "$_g"
}
cat >"$T/esc.sh" <<'EOF'
# esc.sh FILE: start a child that leaves the process group and writes
# its pid to FILE once it has; wait for that
rm -f "$1"
setsid sh -c 'echo $$ >"$1.tmp"; mv "$1.tmp" "$1"; exec sleep 1234' sh "$1" &
while [ ! -s "$1" ]; do sleep 0.1; done
EOF
bounded "gcn-embed --model $T/paper.txt --features 'sh $T/esc.sh $T/esc; nodefeat -l 1' --tsv $T/g.gs >$T/esc1.tsv 2>$T/esc1.err"
gcn-embed -q --model "$T/paper.txt" --features 'nodefeat -l 1' --tsv "$T/g.gs" >"$T/esc0.tsv"
check "[ $rc = 0 ] && cmp -s $T/esc0.tsv $T/esc1.tsv &&
	grep -q \"left its process group and held its pipes open after it ended: pid \$(cat $T/esc) (sleep), killed\" $T/esc1.err" \
	"gcn-embed: a command's escaped child holds its output: the features read, the child killed and named (exit $rc: $(tail -n 1 "$T/esc1.err"))"
gone "$T/esc" "gcn-embed: the escaped child is killed"
rm -f "$T/esc"
bounded "gcn-train $TR --features 'sh $T/esc.sh $T/esc; sleep 1000' --features-timeout 2 -o $T/x.gs $T/lab.gs 2>$T/esc2.err"
check "[ $rc = 1 ] && [ \$(wc -l <$T/esc2.err) = 1 ] && grep -q '^gcn-train: .*no result after 2 s (--features-timeout)' $T/esc2.err" \
	"gcn-train: an escaped child does not hold off --features-timeout: one line, exit 1 (exit $rc: $(cat "$T/esc2.err"))"
check "[ ! -s $T/esc ] || grep -q \"pid \$(cat $T/esc) (sleep), killed\" $T/esc2.err" \
	"gcn-train: after the timeout, the escaped child is named"
[ ! -s "$T/esc" ] || gone "$T/esc" "gcn-train: after the timeout, the escaped child is killed"
d="$T/escsig"
mkdir -p "$d"
cat >"$T/hangesc.sh" <<'EOF'
# hangesc.sh DIR N: the Nth call leaves a child outside its group (its
# pid in DIR/esc once it has left) and hangs (its pid in DIR/pid)
n=$(($(cat "$1/n" 2>/dev/null || echo 0) + 1)); echo $n >"$1/n"
if [ "$n" -eq "$2" ]; then
	sh "${0%/*}/esc.sh" "$1/esc"
	echo $$ >"$1/pid"
	exec sleep 1000
fi
exec nodefeat -l 1
EOF
gcn-train $TR --epochs 5 --features "sh $T/hangesc.sh $d 3" -o "$d/m.gs" "$T/lab.gs" 2>"$d/err" &
P=$!
started "$d/pid" "gcn-train: SIGTERM while an escaped child holds the feature command's output"
stop TERM $P
check "[ $rc = 143 ] && grep -q 'writing the best model so far' $d/err &&
	grep -q \"pid \$(cat $d/esc) (sleep), killed\" $d/err &&
	[ \"\$(ls -A $d)\" = \"\$(printf 'err\\nesc\\nm.gs\\nn\\npid')\" ]" \
	"gcn-train: SIGTERM while an escaped child holds the feature command's output: the model, exit 143, the child named (exit $rc: $(tail -n 2 "$d/err" | tr '\n' ' '))"
gone "$d/esc" "gcn-train: SIGTERM: the escaped child is killed"

# a hung command: a timeout, one line, exit 1; SIGKILL for one that
# ignores SIGTERM, and nothing left.  The command ignores SIGTERM from its
# start (gcn-adapt is started with it ignored, which an ignored signal
# stays, in the program and in its command): a trap set by the command's
# own shell could come after the timeout on a loaded machine.  It has the
# timeout and the grace before SIGKILL (4 s) to write its pid.
expect_err 1 "gcn-embed --model $T/paper.txt --features 'sleep 1000' --features-timeout 1 --tsv $T/g.gs" \
	"features: 'sleep 1000': no result after 1 s (--features-timeout); ended it"
rm -f "$T/pid"
env --ignore-signal=TERM gcn-adapt $AD --model "$T/paper.txt" --features "sleep 1000 & echo \$! >$T/pid; wait" \
	--features-timeout 1 -o "$T/x.gs" "$T/one.gs" 2>"$T/ign.err"
rc=$?
check "[ $rc -eq 1 ] && [ \$(wc -l <$T/ign.err) -eq 1 ] &&
	grep -q '^gcn-adapt: .*no result after 1 s (--features-timeout)' $T/ign.err && [ ! -e $T/x.gs ]" \
	"a command that ignores SIGTERM: the timeout ends it, one line, exit 1 (exit $rc)"
gone $T/pid "a command that ignores SIGTERM is killed after the timeout"
expect_err 1 "gcn-train $TR --features 'sleep 1000' --features-timeout 0.5 -o $T/x.gs $T/lab.gs" \
	"no result after 0.5 s (--features-timeout)"
check "[ -z \"\$(ls -A $T | grep '^x\.gs')\" ]" "gcn-train: a timeout leaves no output or temporary file"
expect_err 2 "gcn-embed --features-timeout -1 --model $T/paper.txt $T/g.gs" "--features-timeout: -1 is too small"

# SIGPIPE does not hide the cause: we stopped reading garbage
expect_err 1 "gcn-embed --model $T/paper.txt --features 'yes garbage | head -c 1000000' --tsv $T/g.gs" \
	"features: 'yes garbage | head -c 1000000': <feature stage output>: line 1: not a gnnstream"
expect_err 1 "gcn-train $TR --features 'yes garbage | head -c 1000000' -o $T/x.gs $T/lab.gs" \
	"<feature stage output>: line 1: not a gnnstream"
# its own failure comes first when it ends by itself
expect_err 1 "gcn-embed --model $T/paper.txt --features 'echo garbage; echo why >&2; exit 3' --tsv $T/g.gs" \
	"features: 'echo garbage; echo why >&2; exit 3' failed (exit 3): why"

# its standard error: bounded, shown whole only when short, kept in TMPDIR
# when it fails
expect 0 "gcn-embed --model $T/paper.txt --features 'head -c 5000000 /dev/zero | tr \"\\\\0\" x >&2; nodefeat -l 1' --tsv $T/g.gs >/dev/null 2>$T/big.err"
check "[ \$(wc -c <$T/big.err) -lt 8000 ] && grep -q 'the end of its standard error follows (the last 4096 of 5000000 bytes)' $T/big.err" \
	"a command's 5 MB of standard error: its last 4 KiB shown"
expect 0 "gcn-embed --model $T/paper.txt --features 'echo note >&2; nodefeat -l 1' --tsv $T/g.gs >/dev/null 2>$T/note.err"
check "grep -qx note $T/note.err && ! grep -q 'the end of its standard error' $T/note.err" \
	"a short standard error is shown as it is"
expect_err 1 "gcn-embed --model $T/paper.txt --features 'seq 1 100000 >&2; exit 3' --tsv $T/g.gs" \
	"failed (exit 3) (its standard error, the last 64 KiB: $T/tmp/gnnpipe-features-stderr-"
kept=$(sed -n 's/.*the last 64 KiB: \([^)]*\)).*/\1/p' "$LIB_ERR")
check "[ -f '$kept' ] && [ \$(wc -c <'$kept') = 65536 ] && [ \"\$(tail -n 1 '$kept')\" = 100000 ]" \
	"a failed command's standard error: its last 64 KiB kept in TMPDIR"
rm -f "$kept"
if [ -d /proc/self/fd ]; then
	expect 0 "gcn-embed -q --model $T/paper.txt --features 'readlink /proc/\$\$/fd/0 >$T/in.txt; exec nodefeat -l 1' --tsv $T/g.gs >/dev/null"
	check "grep -q '^$T/tmp/gnnpipe-features-in-' $T/in.txt" "the command's input is a file in TMPDIR"
fi
check "[ -z \"\$(ls -A $T/tmp)\" ]" "nothing else is left in TMPDIR"
TMPDIR="$T/nothere"
expect_err 1 "gcn-embed --model $T/paper.txt --features 'nodefeat -l 1' --tsv $T/g.gs" \
	"features: a temporary file in $T/nothere: No such file or directory"
TMPDIR="$T/tmp"
