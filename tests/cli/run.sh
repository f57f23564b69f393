#!/bin/sh
# run.sh - run every tests/cli/*.test.sh; each sources lib.sh and calls its
# helpers.  Prints one line per failure, a line per file (its counts and
# seconds, which say where CI's time goes) and a closing "N passed, N failed"
# (and ", N skipped" when tests printed SKIP: lines, lib.sh's skip: what
# this machine lacks, such as bf16 products or numpy).
#   run.sh [NAME...]   only tests/cli/NAME.test.sh (default: every file)
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
keep=0
if [ -n "${GNN_KEEP:-}" ]; then
	mkdir -p "$GNN_KEEP" || exit 2
	if [ -n "$(ls -A "$GNN_KEEP")" ]; then
		echo "run.sh: GNN_KEEP=$GNN_KEEP: the directory is not empty" >&2
		exit 2
	fi
	TMPD=$(cd "$GNN_KEEP" && pwd)
	keep=1
else
	mkdir -p "$top/tests/tmp"
	TMPD=$(mktemp -d "$top/tests/tmp/cli.XXXXXX")
	trap 'rm -rf "$TMPD"' EXIT
fi
# what the programs leave in TMPDIR (a failed feature command's standard
# error) goes with the rest
TMPDIR=$TMPD
export TMPD TMPDIR
pass=0; fail=0; skipped=0; named=$#
if [ $# -gt 0 ]; then
	set -- $(for n in "$@"; do printf '%s ' "$top/tests/cli/${n%.test.sh}.test.sh"; done)
else
	set -- "$top"/tests/cli/*.test.sh
fi
for t in "$@"; do
	if [ ! -e "$t" ]; then
		[ "$named" -eq 0 ] || { echo "FAIL $(basename "$t"): no such test"; fail=$((fail + 1)); }
		continue
	fi
	before=$(ls -A "$TMPD")
	t0=$(date +%s)
	out=$(sh -c '. "$TOP/tests/cli/lib.sh"; . "$1"; lib_summary' sh "$t" 2>&1)
	p=$(printf '%s\n' "$out" | sed -n 's/^LIB_SUMMARY \([0-9]*\) \([0-9]*\)$/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^LIB_SUMMARY \([0-9]*\) \([0-9]*\)$/\2/p')
	printf '%s\n' "$out" | grep -v '^LIB_SUMMARY' || true
	skipped=$((skipped + $(printf '%s\n' "$out" | grep -c '^SKIP: ')))
	# the scratch files this test file made
	mine=$(ls -A "$TMPD" | if [ -n "$before" ]; then grep -vxF "$before"; else cat; fi)
	where=""
	if [ -z "$p" ] || [ "$f" != 0 ]; then
		# (lib.sh's own, the last command's output, are kept unnamed)
		where="; its files: $(for e in $mine; do case $e in
			stdout.[0-9]* | stderr.[0-9]* | check-stderr.[0-9]*) ;;
			*) printf '%s ' "$TMPD/$e" ;; esac; done)"
		keep=1
	elif [ -z "${GNN_KEEP:-}" ]; then
		for e in $mine; do rm -rf "${TMPD:?}/$e"; done
	fi
	if [ -z "$p" ]; then
		echo "FAIL $(basename "$t"): script stopped early$where"
		fail=$((fail + 1)); continue
	fi
	echo "-- $(basename "$t"): $p passed, $f failed ($(( $(date +%s) - t0 )) s)$where"
	pass=$((pass + p)); fail=$((fail + f))
done
echo "cli: $pass passed, $fail failed$([ "$skipped" -eq 0 ] || echo ", $skipped skipped (SKIP: above)")"
if [ "$keep" = 1 ]; then
	trap - EXIT
	echo "cli: the tests' scratch files are kept in $TMPD"
fi
[ "$fail" -eq 0 ]
