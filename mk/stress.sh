#!/bin/sh
# stress.sh - `make test` under load (issue 51): a check whose outcome
# depends on the machine's load fails here, where a quiet machine would
# let it pass.  Each round runs the whole suite twice at once, in two
# scratch copies of this tree (its files as they are now, committed or
# not), beside STRESS_BUSY busy loops; it reports each failing check with
# its round, its copy and the scratch directory the suite kept, and goes
# on.  The last line counts the suites that passed and those that failed,
# and the longest run of passing rounds; exit 1 when any failed.
#   make test-stress                      (or: sh mk/stress.sh)
#   STRESS_RUNS=N      rounds [3]
#   STRESS_BUSY=N      busy loops beside the suites [2]; 0: none
#   STRESS_COPIES=N    suites at once, one copy of the tree each [2], at most 8
#   STRESS_DIR=DIR     where the copies and logs go [tests/tmp/stress]; its
#                      copies are replaced, its log/summary appended to
#   STRESS_TIMEOUT=S   a suite still running after S seconds is ended and
#                      counted as failed (hung?) [10800]
#   STRESS_MAKE=ARGS   what each copy runs [test]; e.g. 'test CLI="mpi
#                      determinism"' for a few files of the suite
# Each suite's output is DIR/log/ROUND-COPY.log; a copy's scratch files of
# failing checks stay in DIR/COPY/tests/tmp/ (run.sh names them).  Run it
# with nice: it takes every core for STRESS_RUNS times the suite's time
# (docs/building.md).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${STRESS_RUNS:-3}
busy=${STRESS_BUSY:-2}
copies=${STRESS_COPIES:-2}
dir=${STRESS_DIR:-$top/tests/tmp/stress}
limit=${STRESS_TIMEOUT:-10800}
what=${STRESS_MAKE:-test}
for v in "$runs" "$busy" "$copies" "$limit"; do
	case $v in '' | *[!0-9]*)
		echo "stress.sh: STRESS_RUNS, STRESS_BUSY, STRESS_COPIES and STRESS_TIMEOUT are counts: '$v'" >&2
		exit 2 ;;
	esac
done
if [ "$copies" -lt 1 ] || [ "$copies" -gt 8 ]; then
	echo "stress.sh: STRESS_COPIES=$copies: expected 1 to 8" >&2
	exit 2
fi
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
mkdir -p "$dir/log" || exit 2
say() { echo "stress: $*" | tee -a "$dir/log/summary"; }
# make's own variables from a make that runs this script (make
# test-stress) would reach the copies' makes: each runs on its own
nomake="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL"

# what this script started, ended by id when it is stopped: the busy loops
# and each suite's process group (a session of its own: setsid)
bpids="" running=0
cleanup() {
	for p in $bpids; do kill "$p" 2>/dev/null; done
	if [ "$running" = 1 ]; then
		for f in "$dir"/log/*.pgid; do
			[ -s "$f" ] && kill -TERM -- "-$(cat "$f")" 2>/dev/null
		done
	fi
}
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM HUP
trap cleanup EXIT

# what make test wants beyond the build (numpy, Open MPI), installed once
# here as root (two make tests at once would both ask apt-get)
sh "$top/mk/deps.sh" want numpy mpi || exit 2
# the copies: the tree's files as they are (tracked and new, not ignored),
# each built before the rounds (make test would build both at once)
names=$(echo a b c d e f g h | cut -d ' ' -f "1-$copies")
# the datasets beside the tree (../shared, as in CI's checkout) beside the
# copies too: graph-import.test.sh rebuilds the shipped streams from them
if [ -d "$top/../shared" ]; then
	ln -sfn "$(cd "$top/../shared" && pwd)" "$dir/shared" ||
		{ echo "stress.sh: cannot link $dir/shared" >&2; exit 2; }
fi
for n in $names; do
	c="$dir/$n"
	rm -rf "$c"
	mkdir -p "$c"
	# shellcheck disable=SC2016 # for the inner shell
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | (cd "$c" && tar -xf -) ||
		{ echo "stress.sh: cannot copy the tree to $c" >&2; exit 2; }
	say "copy $n: $c; building"
	units=$(cd "$c" && for u in tests/unit/test_*.c; do u=${u#tests/unit/}; printf 'tests/bin/%s ' "${u%.c}"; done)
	# shellcheck disable=SC2086 # $nomake and $units are lists of words
	if ! $nomake make -C "$c" --no-print-directory -j2 all tests/bin/compose-gen $units \
		>"$dir/log/build-$n.log" 2>&1; then
		echo "stress.sh: the build of copy $n failed: $dir/log/build-$n.log" >&2
		exit 2
	fi
done

say "$(date '+%Y-%m-%d %H:%M:%S'): $runs rounds of $copies suites at once (make $what), $busy busy loops; $(uptime | sed 's/.*load/load/')"
passed=0 failed=0 streak=0 best=0 round=1
while [ "$round" -le "$runs" ]; do
	bpids=""
	i=0
	while [ "$i" -lt "$busy" ]; do
		sh -c 'while :; do :; done' &
		bpids="$bpids $!"
		i=$((i + 1))
	done
	t0=$(date +%s)
	running=1
	spids=""
	for n in $names; do
		log="$dir/log/$round-$n.log"
		# a session of its own, whose id (the inner shell's) is in
		# $log.pgid: timeout(1) ends the suite's whole group on a hang,
		# cleanup when this script is stopped
		# shellcheck disable=SC2016,SC2086 # for the inner shells; $nomake
		setsid -w sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$log.pgid" \
			timeout -k 60 "$limit" $nomake \
			sh -c 'eval "exec make --no-print-directory -C \"\$1\" $2"' sh "$dir/$n" "$what" \
			>"$log" 2>&1 &
		spids="$spids $!"
	done
	rcs=""
	for n in $names; do
		p=${spids# }
		p=${p%% *}
		spids=${spids# }
		spids=${spids#"$p"}
		wait "$p"
		echo "$?" >"$dir/log/$round-$n.rc"
	done
	running=0
	ok=1
	for n in $names; do
		log="$dir/log/$round-$n.log"
		rc=$(cat "$dir/log/$round-$n.rc")
		rm -f "$log.pgid" "$dir/log/$round-$n.rc"
		echo "stress: make $what: exit $rc" >>"$log"
		if [ "$rc" -eq 0 ] && grep -q '^cli: [0-9]* passed, 0 failed' "$log"; then
			rcs="$rcs $n:passed"
			passed=$((passed + 1))
			continue
		fi
		ok=0
		failed=$((failed + 1))
		rcs="$rcs $n:FAILED"
		say "round $round, copy $n failed (exit $rc; $([ "$rc" -ne 124 ] || echo "ran over $limit s; ")its output: $log):"
		# the failing checks (lib.sh's FAIL lines and their indented
		# details, Criterion's), the files that failed, where their
		# scratch files are kept, make's last word
		awk '/^FAIL|^\[FAIL\]|^\[----\].*(Assertion|[Tt]imed out|[Cc]rash)|^-- .* [1-9][0-9]* failed|kept in|^make: \*\*\*/ { on = 1; print; next }
			/^(-- |cli: |SKIP: |== |\[====\]|\[----\]|\[RUN )/ { on = 0 } on' "$log" |
			head -n 80 | sed 's/^/stress:   /' | tee -a "$dir/log/summary"
	done
	for p in $bpids; do kill "$p" 2>/dev/null; done
	for p in $bpids; do wait "$p" 2>/dev/null; done
	bpids=""
	if [ "$ok" = 1 ]; then
		streak=$((streak + 1))
		[ "$streak" -le "$best" ] || best=$streak
	else
		streak=0
	fi
	say "round $round: $(($(date +%s) - t0)) s,$rcs; $(uptime | sed 's/.*load/load/')"
	round=$((round + 1))
done
say "$runs rounds, $((passed + failed)) suites: $passed passed, $failed failed; the longest run of passing rounds: $best"
[ "$failed" -eq 0 ]
