#!/bin/sh
# funclen.sh - the length of every C function definition, longest first,
# one "LINES FILE:LINE NAME" a line: LINE is the line of the function's
# name, LINES counts from there to the closing brace.  It reads the house
# layout (the name at the start of a line, the body's braces alone in
# column 0), no ctags needed; a definition written otherwise (a one-line
# body) is not listed.  Criterion's Test() bodies are left out.
#   sh mk/funclen.sh [-m MIN] [FILE...]   (default: common/*.c tools/*.c, MIN 1)
set -eu
min=1
if [ "${1:-}" = -m ]; then
	min=$2
	shift 2
fi
[ $# -gt 0 ] || set -- common/*.c tools/*.c
awk -v min="$min" '
FNR == 1 { name = ""; start = 0 }
/^[A-Za-z_][A-Za-z0-9_ \t*]*\(/ && !/;[ \t]*$/ {
	s = $0
	sub(/\(.*/, "", s)
	n = split(s, w, /[ \t*]+/)
	name = w[n] == "Test" || w[n] == "ParameterizedTest" ? "" : w[n]
	line = FNR
	next
}
/^\{/ { if (name != "") start = 1; next }
/^\}/ {
	if (start && FNR - line + 1 >= min)
		printf "%d %s:%d %s\n", FNR - line + 1, FILENAME, line, name
	start = 0
	name = ""
}' "$@" | sort -k1,1nr -k2,2
