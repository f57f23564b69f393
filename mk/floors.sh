#!/bin/sh
# floors.sh - docs/architecture.md's layer table is the includes' (make
# lint, tests/cli/docs.test.sh; docs/style.md): a file's floor is one above
# the highest floor of the headers it includes (x.c and x.h one file, a
# private *_int.h seen through), so an include from a lower floor to a
# higher one, or a circle, moves a floor and fails here until the table
# says so.
#   sh mk/floors.sh        from the top of the tree; exit 1 with what differs
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/floors.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
(cd "$top/common" && awk '
	FNR == 1 { u = FILENAME; sub(/\.[ch]$/, "", u); unit[u] = 1 }
	/^#include "[^"]*\.h"/ {
		v = $2; gsub(/"/, "", v); sub(/\.h$/, "", v)
		if (v != u) inc[u] = inc[u] " " v
	}
	END {
		for (u in unit) {
			if (u ~ /_int$/) continue
			n = split(inc[u], a, " "); e[u] = ""
			for (i = 1; i <= n; i++)
				if (a[i] ~ /_int$/) e[u] = e[u] " " inc[a[i]]
				else e[u] = e[u] " " a[i]
			f[u] = 1
		}
		for (it = 0; it < 64; it++) {
			ch = 0
			for (u in f) {
				n = split(e[u], a, " ")
				for (i = 1; i <= n; i++)
					if (a[i] != u && (a[i] in f) && f[u] < f[a[i]] + 1) { f[u] = f[a[i]] + 1; ch = 1 }
			}
			if (!ch) break
		}
		for (u in f) print u, (ch ? "loop" : f[u])
	}' *.[ch]) | sort >"$tmp/code"
awk '/^## Layers/ { on = 1; next } /^## / { on = 0 }
	on && /^\| [0-9]+ \|/ {
		split($0, c, "|"); fl = c[2] + 0; s = c[3]
		while (match(s, /`[^`]*`/)) {
			n = substr(s, RSTART + 1, RLENGTH - 2); sub(/\.h$/, "", n)
			print n, fl; s = substr(s, RSTART + RLENGTH)
		}
	}' "$top/docs/architecture.md" | sort >"$tmp/doc"
if [ ! -s "$tmp/code" ]; then
	echo "floors: no file of common/ read" >&2
	exit 1
fi
d=$(diff "$tmp/doc" "$tmp/code" | sed -n 's/^> //p' | tr '\n' ' ')
if [ -n "$d" ]; then
	echo "floors: docs/architecture.md's layer table is not the includes' (the includes give: $d)" >&2
	exit 1
fi
echo "floors: $(wc -l <"$tmp/code") files of common/ on the floors of docs/architecture.md"
