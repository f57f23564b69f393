#!/bin/sh
# run.sh - run every tests/cli/*.test.sh; each sources lib.sh and calls its
# helpers.  Prints one line per failure, a line per file (its counts and
# seconds, which say where CI's time goes) and a closing "N passed, N failed"
# (and ", N skipped" when tests printed SKIP: lines, lib.sh's skip: what
# this machine lacks, such as bf16 products or numpy).
#   run.sh [NAME...]   only tests/cli/NAME.test.sh (default: every file)
# The files run CLI_JOBS at a time (default: the machine's cores, at most
# 4; CLI_JOBS=1 runs them one after another), each in a scratch directory
# of its own, TMPD=SCRATCH/NAME, so that two files never share a file; a
# file's lines are printed together when it ends.  The longest files start
# first (CLI_FIRST below: an order for the lanes' balance, nothing
# depends on it).
# GNN_BIN names the directory of the programs under test (default: bin/ of
# this tree); `make test-asan` points it at build/asan/bin.  GNN_KEEP=DIR
# makes DIR (new or empty) the tests' scratch directory and keeps it
# afterwards, so that two runs' files can be compared
# (docs/refactor-plan.md, V5); by default it is a fresh directory under
# tests/tmp/: the files of a test file that passed are removed when it
# ends, those of a file with a failure are kept, and its line names them
# (and the closing line the directory).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${GNN_BIN:-$top/bin}
export TOP="$top" BIN="$bin" PATH="$bin:$PATH"

# run.sh --one FILE ROOT: one test file in ROOT/NAME (the lanes' job); its
# lines go to ROOT/.log/NAME, its counts to ROOT/.count/NAME
if [ "${1:-}" = --one ]; then
	t=$2 root=$3
	name=$(basename "$t" .test.sh)
	TMPD=$root/$name
	TMPDIR=$TMPD
	export TMPD TMPDIR
	mkdir -p "$TMPD"
	t0=$(date +%s)
	out=$(sh -c '. "$TOP/tests/cli/lib.sh"; . "$1"; lib_summary' sh "$t" 2>&1)
	p=$(printf '%s\n' "$out" | sed -n 's/^LIB_SUMMARY \([0-9]*\) \([0-9]*\)$/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^LIB_SUMMARY \([0-9]*\) \([0-9]*\)$/\2/p')
	s=$(printf '%s\n' "$out" | grep -c '^SKIP: ')
	where=""
	if [ -z "$p" ] || [ "$f" != 0 ]; then
		where="; its files: $TMPD"
	elif [ -z "${GNN_KEEP:-}" ]; then
		rm -rf "$TMPD"
	fi
	{
		printf '%s\n' "$out" | grep -v '^LIB_SUMMARY' || true
		if [ -z "$p" ]; then
			echo "FAIL $(basename "$t"): script stopped early$where"
		else
			echo "-- $(basename "$t"): $p passed, $f failed ($(( $(date +%s) - t0 )) s)$where"
		fi
	} >"$root/.log/$name"
	# a file that stopped early counts as one failure
	echo "${p:-0} ${f:-1} $s" >"$root/.count/$name"
	# printed whole, one file at a time
	flock "$root/.log" cat "$root/.log/$name"
	exit 0
fi

keep=0
if [ -n "${GNN_KEEP:-}" ]; then
	mkdir -p "$GNN_KEEP" || exit 2
	if [ -n "$(ls -A "$GNN_KEEP")" ]; then
		echo "run.sh: GNN_KEEP=$GNN_KEEP: the directory is not empty" >&2
		exit 2
	fi
	root=$(cd "$GNN_KEEP" && pwd)
	keep=1
else
	mkdir -p "$top/tests/tmp"
	root=$(mktemp -d "$top/tests/tmp/cli.XXXXXX")
	trap 'rm -rf "$root"' EXIT
fi
mkdir -p "$root/.log" "$root/.count"
jobs=${CLI_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0)
	echo "run.sh: CLI_JOBS=$jobs: expected a count of 1 or more" >&2
	exit 2 ;;
esac
[ -n "${CLI_JOBS:-}" ] || [ "$jobs" -le 4 ] || jobs=4
# the longest files first (seconds on a quiet 2-core machine, 2026-12)
CLI_FIRST="pipelines man-examples mpi makerun compose gcn-adapt badinput python pypkg readme infer build-noroot featcmd"
fail=0 files=
if [ $# -gt 0 ]; then
	for n in "$@"; do
		f=$top/tests/cli/${n%.test.sh}.test.sh
		if [ -e "$f" ]; then
			files="$files$f
"
		else
			echo "FAIL $(basename "$f"): no such test"
			fail=$((fail + 1))
		fi
	done
else
	files=$( (for n in $CLI_FIRST; do
		[ ! -e "$top/tests/cli/$n.test.sh" ] || echo "$top/tests/cli/$n.test.sh"; done
		ls "$top"/tests/cli/*.test.sh) | awk '!seen[$0]++')
fi
# (xargs -I: one file a job, its path in place of {}; a name with a
# blank would split, and the tests' names have none)
[ -z "$files" ] || printf '%s\n' "$files" | xargs -P "$jobs" -I{} sh "$top/tests/cli/run.sh" --one {} "$root"
# bad: the files' own failures (their directories are kept)
pass=0 skipped=0 bad=0
for c in "$root"/.count/*; do
	[ -e "$c" ] || continue
	read -r p f s <"$c"
	pass=$((pass + p)); bad=$((bad + f)); skipped=$((skipped + s))
done
fail=$((fail + bad))
# a file that did not report (killed?) is a failure too
n=$(printf '%s\n' "$files" | grep -c .)
got=$(ls "$root/.count" | grep -c .)
if [ "$got" -lt "$n" ]; then
	echo "FAIL run.sh: $((n - got)) of $n files did not report"
	fail=$((fail + n - got)); bad=$((bad + n - got))
fi
echo "cli: $pass passed, $fail failed$([ "$skipped" -eq 0 ] || echo ", $skipped skipped (SKIP: above)")"
if [ "$keep" = 1 ] || [ "$bad" -gt 0 ]; then
	trap - EXIT
	rm -rf "$root/.log" "$root/.count"
	echo "cli: the tests' scratch files are kept in $root"
fi
[ "$fail" -eq 0 ]
