#!/bin/sh
# run.sh - run every tests/cli/*.test.sh; each sources lib.sh and calls its
# helpers.  Prints one line per failure and a closing "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
export TOP="$top" BIN="$top/bin" PATH="$top/bin:$PATH"
mkdir -p "$top/tests/tmp"
TMPD=$(mktemp -d "$top/tests/tmp/cli.XXXXXX")
export TMPD
trap 'rm -rf "$TMPD"' EXIT
pass=0; fail=0
for t in "$top"/tests/cli/*.test.sh; do
	[ -e "$t" ] || continue
	out=$(sh -c '. "$TOP/tests/cli/lib.sh"; . "$1"; lib_summary' sh "$t" 2>&1)
	p=$(printf '%s\n' "$out" | sed -n 's/^LIB_SUMMARY \([0-9]*\) \([0-9]*\)$/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^LIB_SUMMARY \([0-9]*\) \([0-9]*\)$/\2/p')
	printf '%s\n' "$out" | grep -v '^LIB_SUMMARY' || true
	if [ -z "$p" ]; then
		echo "FAIL $(basename "$t"): script stopped early"
		fail=$((fail + 1)); continue
	fi
	echo "-- $(basename "$t"): $p passed, $f failed"
	pass=$((pass + p)); fail=$((fail + f))
done
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
