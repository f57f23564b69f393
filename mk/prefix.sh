#!/bin/sh
# prefix.sh - every exported name of the library starts with its file's
# prefix (docs/style.md, rule 18): the file's name up to its first '_'
# (adapt_run.o: adapt), or a short prefix mk/prefixes.txt gives that
# family (stream: gs, gsi), followed by '_' or nothing; the names
# mk/prefixes.txt lists with their reasons aside.  Names the compiler
# makes (OpenMP's .gomp_critical_user_*) start with '.' and are not ours.
# A listed name that its file no longer exports, or that keeps the rule
# after all, is an error too, so that the list only shrinks.  make lint
# runs it on common/*.o.
#   sh mk/prefix.sh [-l LIST] OBJ...
set -eu
list=$(dirname "$0")/prefixes.txt
if [ "${1:-}" = -l ]; then
	list=$2
	shift 2
fi
[ $# -gt 0 ] || { echo "usage: sh mk/prefix.sh [-l LIST] OBJ..." >&2; exit 2; }
[ -r "$list" ] || { echo "prefix.sh: $list: cannot read it" >&2; exit 2; }
# nm names each object before its symbols ("\ncommon/x.o:") when given
# several; with one, it does not
nm --defined-only -g "$@" | awk -v list="$list" -v one="$#" -v obj="$1" '
function family(f) { sub(/.*\//, "", f); sub(/\.o$/, "", f); sub(/_.*/, "", f); return f }
function starts(s, p) { return s == p || substr(s, 1, length(p) + 1) == p "_" }
function object(f) { file = f; base = f; sub(/.*\//, "", base); sub(/\.o$/, "", base); objs[base] = 1 }
BEGIN {
	while ((getline line < list) > 0) {
		ln++
		if (line ~ /^[ \t]*(#|$)/)
			continue
		i = index(line, ":")
		n = split(i ? substr(line, 1, i - 1) : line, w, /[ \t]+/)
		reason = i ? substr(line, i + 1) : ""
		gsub(/^[ \t]+|[ \t]+$/, "", reason)
		if ((w[1] != "prefix" && w[1] != "name") || n < 3 || reason == "") {
			printf "%s:%d: expected \"prefix FAMILY PREFIX...: reason\" or \"name FILE NAME...: reason\"\n", list, ln
			bad++
			continue
		}
		for (k = 3; k <= n; k++)
			if (w[1] == "prefix")
				alias[w[2]] = alias[w[2]] " " w[k]
			else
				listed[w[2] " " w[k]] = ln
	}
	if (one == 1)
		object(obj)
}
/^$/ { next }
/:$/ { object(substr($0, 1, length($0) - 1)); next }
{
	name = $NF
	if (name ~ /^\./)
		next
	fam = family(file)
	ok = starts(name, fam)
	if (!ok && (fam in alias)) {
		n = split(alias[fam], p, " ")
		for (k = 1; k <= n && !ok; k++)
			ok = starts(name, p[k])
	}
	key = base " " name
	if (key in listed) {
		seen[key] = 1
		if (ok) {
			printf "%s:%d: %s: %s keeps the rule: take it off the list\n", list, listed[key], file, name
			bad++
		}
		next
	}
	if (!ok) {
		printf "%s: %s does not start with its file'"'"'s prefix (%s%s)\n", file, name, fam,
		    (fam in alias) ? alias[fam] : ""
		bad++
	}
	names++
}
END {
	for (key in listed) {
		split(key, a, " ")
		if ((key in seen) || !(a[1] in objs)) # an object not given: not checked
			continue
		printf "%s:%d: %s.o exports no %s: take it off the list\n", list, listed[key], a[1], a[2]
		bad++
	}
	if (bad) {
		printf "prefix: %d failure%s (docs/style.md, rule 18; %s)\n", bad, bad == 1 ? "" : "s", list
		exit 1
	}
	nl = 0
	for (key in seen) nl++
	printf "prefix: %d exported names start with their file'"'"'s prefix, %d listed aside in %s\n", names, nl, list
}'
