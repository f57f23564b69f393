# docs.test.sh - what a program accepts, its help and its manual say:
# every long option in a program's getopt table (and the shared ones of
# COPT_LONGOPTS) is listed by `prog -h` and described in man/man1/prog.1,
# and the model attributes gcn-train writes are described in gcn-train(1).
# Sourced by run.sh with lib.sh.
T="$TMPD/docs"
mkdir -p "$T"
shared="help level output progress quiet seed text threads version"
for src in "$TOP"/tools/*.c; do
	p=$(basename "$src" .c)
	own=$(sed -n 's/^[[:space:]]*{ *"\([a-zA-Z0-9-]*\)", *\(no\|required\|optional\)_argument.*/\1/p' "$src")
	"$p" -h >"$T/$p.help" 2>&1
	missing_h="" missing_m=""
	for o in $own $shared; do
		grep -q -- "--$o\([^a-z0-9-]\|\$\)" "$T/$p.help" || missing_h="$missing_h --$o"
		grep -q -- "\(\\\\-\| -\)$o\([^a-z0-9-]\|\$\)" "$TOP/man/man1/$p.1" ||
			missing_m="$missing_m --$o"
	done
	check "[ -z '$missing_h' ]" "$p -h lists every option it accepts (missing:$missing_h)"
	check "[ -z '$missing_m' ]" "$p(1) describes every option $p accepts (missing:$missing_m)"
done

# the attributes of gcn-train's model record, each in gcn-train(1)
dcbm-gen -q --count 6 -s 1 --nodes 30..40 | centrality -q >"$T/g.gs"
expect 0 "gcn-train -q -j 1 --hidden 8 --epochs 1 --batch 2 -t -o $T/m.txt $T/g.gs"
keys=$(grep '^@model' "$T/m.txt" | tr ' ' '\n' | sed -n 's/=.*//p' | sed 's/^layer_weights\..*/layer_weights./' | sort -u)
undoc=""
for k in $keys; do
	case $k in name|config|params|pg) continue ;; esac	# the record's own fields (gnnstream(5))
	grep -q "Cm $k\([^a-z0-9_.]\|\$\)\|Cm [a-z_.]*, $k\([^a-z0-9_.]\|\$\)\| , $k\([^a-z0-9_.]\|\$\)" "$TOP/man/man1/gcn-train.1" ||
		undoc="$undoc $k"
done
check "[ -n '$keys' ] && [ -z '$undoc' ]" "gcn-train(1) describes every model attribute (missing:$undoc)"

# gnnstream(5) states one node limit, the readers' (GS_MAX_NODES = 2^26)
check "grep -q '2^26' $TOP/man/man5/gnnstream.5 && ! grep -q '2^31' $TOP/man/man5/gnnstream.5" \
	"gnnstream(5): the node limit is 2^26 wherever it is stated"
# and the binary framing of a model's parameters
check "grep -q 'parameters, each framed like a record: a 32-bit little-endian length' $TOP/man/man5/gnnstream.5" \
	"gnnstream(5): a param header's 32-bit length prefix"

# docs/architecture.md's layer table is the includes': a file's floor is
# one above the highest floor of the headers it includes (x.c and x.h one
# file, a private *_int.h seen through), and every common/ file and
# program has a row of its own in "What each file is for"
(cd "$TOP/common" && awk '
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
	}' *.[ch]) | sort >"$T/floors.code"
awk '/^## Layers/ { on = 1; next } /^## / { on = 0 }
	on && /^\| [0-9]+ \|/ {
		split($0, c, "|"); fl = c[2] + 0; s = c[3]
		while (match(s, /`[^`]*`/)) {
			n = substr(s, RSTART + 1, RLENGTH - 2); sub(/\.h$/, "", n)
			print n, fl; s = substr(s, RSTART + RLENGTH)
		}
	}' "$TOP/docs/architecture.md" | sort >"$T/floors.doc"
floordiff=$(diff "$T/floors.doc" "$T/floors.code" | sed -n "s/^> //p" | tr "\n" " ")
check "[ -s $T/floors.code ] && [ -z '$floordiff' ]" \
	"docs/architecture.md: the layer table is the includes' (the includes give: $floordiff)"
norow=""
for f in "$TOP"/common/*.c "$TOP"/tools/*.c; do
	grep -q "^| [^|]*\`$(basename "$f")\`" "$TOP/docs/architecture.md" ||
		norow="$norow ${f#"$TOP"/}"
done
check "[ -z '$norow' ]" "docs/architecture.md: a row for every file of common/ and tools/ (missing:$norow)"
