#!/bin/sh
# coverage.sh - does a pre-training corpus cover the downstream sets
# (issue 47, coverage.mk)?  graphstat's statistics of every graph, and the
# pooled degree distribution, of the corpus and of each set, then a
# report of where each set lies against the corpus.
#   sh coverage.sh stats IN OUT             one stream's statistics
#   sh coverage.sh table DIR TITLE CORPUS DATA SET...   the report on stdout
# stats: OUT gets a line "G id nodes density mean_degree degree_cv
#   clustering assortativity" a graph (graphstat's, the log1p columns
#   back on their own scale) and a line "D degree count" a degree of the
#   pooled degree distribution (isolated nodes at 0), tab-separated.
# table: DIR holds corpus.txt and SET.txt for each SET; CORPUS is the
#   corpus's file and DATA/SET.gs each set's stream, named (and their
#   provenance read) in the report.
# How coverage is measured is written in the report itself (below).
set -eu
PATH="${BIN:+$BIN:}$PATH"
here=$(dirname "$0")
STATS="nodes density mean_degree degree_cv clustering assortativity"
# the share of a set's graphs inside the corpus's range that makes a
# statistic covered
COVERED=0.9

# ---- stats: one pass over the text form: the graphs' edges give the
# degrees, the graphstat rows the statistics ----
stats() {
	graphstat -q -l 0 -t --name coverage \
		--columns log_nodes,density,log_mean_degree,degree_cv,clustering,assortativity "$1" |
		awk -F '\t' -v OFS='\t' '
		function flush(  v) {
			for (v = 0; v < n; v++)
				hist[deg[v] + 0]++
			delete deg
			n = 0
		}
		/^##/ { next }
		/^@/ {
			flush()
			if ($0 ~ /^@graph /) {
				n = $0; sub(/.* nodes=/, "", n); sub(/ .*/, "", n); n += 0
			} else if ($0 ~ /^@tensor .* name=coverage /) {
				id = $0; sub(/.* id=/, "", id); sub(/ .*/, "", id); row = 1
			}
			next
		}
		row {
			split($0, x, /[ \t]+/)
			print "G", id, int(exp(x[1]) - 1 + 0.5), x[2], exp(x[3]) - 1, x[4], x[5], x[6]
			row = 0
			next
		}
		n { split($0, e, /[ \t]+/); deg[e[1]]++; deg[e[2]]++ }
		END { flush(); for (d in hist) print "D", d, hist[d] }' >"$2.tmp"
	mv "$2.tmp" "$2"
}

# ---- table ----

# col FILE K: statistic K (1 = nodes) of every graph, sorted
col() { awk -F '\t' -v k="$2" '$1 == "G" { print $(k + 2) }' "$1" | sort -g; }

# quantile P < SORTED: the P-quantile, linear between order statistics
# (numpy's default)
quantile() {
	awk -v p="$1" '{ x[NR] = $1 } END {
		if (NR == 0) exit 1
		h = (NR - 1) * p; i = int(h); f = h - i
		print (i + 1 < NR) ? x[i + 1] + f * (x[i + 2] - x[i + 1]) : x[NR] }'
}

# fmt X: a value for people (integers and values past 100 as integers,
# others to 3 significant digits, small ones in exponent form)
fmt() {
	awk -v x="$1" 'BEGIN { a = x < 0 ? -x : x
		if ((x == int(x) || a >= 100) && a < 1e9) printf "%.0f", x
		else if (a != 0 && a < 0.001) printf "%.2e", x
		else printf "%.3g", x }'
}

name() {
	case $1 in
	nodes) echo "nodes" ;;
	density) echo "density" ;;
	mean_degree) echo "mean degree" ;;
	degree_cv) echo "degree CV" ;;
	clustering) echo "clustering" ;;
	assortativity) echo "assortativity" ;;
	esac
}

# the five quantiles of statistic K of FILE, as table cells
five() {
	col "$1" "$2" >"$tmp/col"
	for p in 0 0.1 0.5 0.9 1; do
		printf ' %s |' "$(fmt "$(quantile $p <"$tmp/col")")"
	done
}

# inside FILE K LO HI: "share below above" of FILE's graphs against [LO, HI]
inside() {
	awk -F '\t' -v k="$2" -v lo="$3" -v hi="$4" '$1 == "G" { n++; x = $(k + 2) + 0
		if (x < lo) b++; else if (x > hi) a++ }
		END { printf "%.4f %d %d\n", (n - a - b) / n, b, a }' "$1"
}

# degree DIST FILE: the pooled degree counts of FILE, "degree count" sorted
degrees() { awk -F '\t' '$1 == "D" { print $2 "\t" $3 }' "$1" | sort -n; }

table() {
	dir=$1 title=$2 corpus=$3 data=$4
	shift 4
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	c="$dir/corpus.txt"
	ng=$(awk '$1 == "G"' "$c" | wc -l)
	nn=$(awk -F '\t' '$1 == "D" { s += $3 } END { print s }' "$c")
	root=$(cd "$here/.." && pwd)
	shown=$(cd "$(dirname "$corpus")" && pwd)/$(basename "$corpus") where=""
	case $shown in
	"$root"/*) shown=${shown#"$root"/} ;;
	*) shown=$(basename "$corpus") where=" (outside the checkout)" ;;
	esac
	echo "# $title"
	echo
	echo "Corpus: \`$shown\`$where, $ng graphs, $nn nodes, sha256 \`$(sha256sum <"$corpus" | cut -c 1-16)…\`;"
	echo "its provenance is at the end. Sets: the transfer benchmark's"
	echo "(\`transfer.sh data SET\`, pipelines/README.md)."
	echo
	echo "How coverage is measured. \`graphstat\` describes every graph (graphstat(1):"
	echo "nodes, density 2m / (n (n - 1)), mean degree, the degrees' coefficient"
	echo "of variation, average clustering, degree assortativity; networkx's"
	echo "definitions). A set's graph is *inside* the corpus on a statistic when its"
	echo "value lies between the corpus graphs' 1% and 99% quantiles (numpy's"
	echo "linear interpolation); a statistic is covered when at least $(awk -v c=$COVERED 'BEGIN { print 100 * c }')% of the"
	echo "set's graphs are inside (a one-graph set: when its graph is), and a set"
	echo "is covered when every statistic is. The degree distributions are compared"
	echo "pooled over each collection's nodes: their shares on logarithmic bins, the"
	echo "share of the set's nodes whose degree lies within the corpus's 1-99% degree"
	echo "range, and the Kolmogorov-Smirnov distance D = max_d |F_corpus(d) - F_set(d)|"
	echo "(0: the same distribution, 1: disjoint)."
	echo
	# the corpus's 1-99% range of each statistic
	k=0
	for s in $STATS; do
		k=$((k + 1))
		col "$c" $k >"$tmp/col"
		echo "$s $(quantile 0.01 <"$tmp/col") $(quantile 0.99 <"$tmp/col")" >>"$tmp/range"
	done
	echo "## Coverage"
	echo
	printf '| set | graphs |'
	for s in $STATS; do printf ' %s |' "$(name "$s")"; done
	echo " verdict |"
	printf '|---|---|'
	for s in $STATS; do printf -- '---|'; done
	echo "---|"
	printf '| corpus 1-99%% | %s |' "$ng"
	while read -r s lo hi; do printf ' %s .. %s |' "$(fmt "$lo")" "$(fmt "$hi")"; done <"$tmp/range"
	echo " |"
	for set in "$@"; do
		f="$dir/$set.txt"
		n=$(awk '$1 == "G"' "$f" | wc -l)
		printf '| %s | %s |' "$set" "$n"
		k=0 out=""
		while read -r s lo hi; do
			k=$((k + 1))
			read -r share below above <<-EOF
			$(inside "$f" $k "$lo" "$hi")
			EOF
			if [ "$n" -eq 1 ]; then
				v=$(col "$f" $k)
				side=in
				[ "$below" -eq 0 ] || side="**below**"
				[ "$above" -eq 0 ] || side="**above**"
				printf ' %s %s |' "$(fmt "$v")" "$side"
				[ "$side" = in ] || out="$out, $(name "$s") $(echo "$side" | tr -d '*')"
			else
				pct=$(awk -v x="$share" 'BEGIN { printf "%.0f", 100 * x }')
				if awk -v x="$share" -v c=$COVERED 'BEGIN { exit !(x < c) }'; then
					printf ' **%s%%** |' "$pct"
					ob=$(awk -v b="$below" -v t="$n" 'BEGIN { printf "%.0f", 100 * b / t }')
					oa=$(awk -v a="$above" -v t="$n" 'BEGIN { printf "%.0f", 100 * a / t }')
					d=""
					[ "$below" -eq 0 ] || d="$ob% below"
					[ "$above" -eq 0 ] || d="${d:+$d, }$oa% above"
					out="$out, $(name "$s") ($d)"
				else
					printf ' %s%% |' "$pct"
				fi
			fi
		done <"$tmp/range"
		if [ -z "$out" ]; then
			echo " covered |"
			echo "$set" >>"$tmp/covered"
		else
			echo " not covered: ${out#, } |"
		fi
	done
	echo
	: >>"$tmp/covered"
	nc=$(wc -l <"$tmp/covered")
	echo "Covered: $nc of $# sets$([ "$nc" -eq 0 ] || echo " ($(tr '\n' ' ' <"$tmp/covered" | sed 's/ $//; s/ /, /g'))")."
	echo
	echo "A one-graph set shows its value (**below** or **above** the corpus's range);"
	echo "a set of graphs, the share of its graphs inside the range (**bold** under"
	echo "$(awk -v c=$COVERED 'BEGIN { print 100 * c }')%)."
	echo
	echo "## The statistics"
	echo
	echo "Quantiles over each collection's graphs: min, 10%, median, 90%, max."
	k=0
	for s in $STATS; do
		k=$((k + 1))
		echo
		echo "### $(name "$s")"
		echo
		echo "| set | graphs | min | 10% | median | 90% | max |"
		echo "|---|---|---|---|---|---|---|"
		printf '| corpus | %s |%s\n' "$ng" "$(five "$c" $k)"
		for set in "$@"; do
			printf '| %s | %s |%s\n' "$set" "$(awk '$1 == "G"' "$dir/$set.txt" | wc -l)" \
				"$(five "$dir/$set.txt" $k)"
		done
	done
	echo
	echo "## Degree distributions"
	echo
	degrees "$c" >"$tmp/cdeg"
	# the corpus's 1% and 99% degree quantiles (the smallest d with
	# F(d) >= p)
	dlo=$(awk -v p=0.01 '{ s += $2; d[NR] = $1; c[NR] = s } END { for (i = 1; i <= NR; i++) if (c[i] >= p * s) { print d[i]; exit } }' "$tmp/cdeg")
	dhi=$(awk -v p=0.99 '{ s += $2; d[NR] = $1; c[NR] = s } END { for (i = 1; i <= NR; i++) if (c[i] >= p * s) { print d[i]; exit } }' "$tmp/cdeg")
	echo "Share of each collection's nodes (%) by degree, on bins that double; the"
	echo "share of the set's nodes whose degree is within the corpus's 1-99% range"
	echo "($dlo .. $dhi); and the Kolmogorov-Smirnov distance to the corpus."
	echo
	bins="0 1 2 4 8 16 32 64 128 256"
	printf '| set | nodes |'
	for b in $bins; do
		case $b in 0 | 1) printf ' %s |' "$b" ;; 256) printf ' %s+ |' "$b" ;;
		*) printf ' %s-%s |' "$b" $((2 * b - 1)) ;; esac
	done
	echo " in range | KS D |"
	printf '|---|---|'
	for b in $bins; do printf -- '---|'; done
	echo "---|---|"
	for set in corpus "$@"; do
		degrees "$dir/$set.txt" >"$tmp/sdeg"
		awk -v bins="$bins" -v lo="$dlo" -v hi="$dhi" -v set="$set" '
			NR == FNR { cd[$1] = $2; ct += $2; next }
			{ sd[$1] = $2; st += $2; if ($1 >= lo && $1 <= hi) in_ += $2 }
			END {
				nb = split(bins, b, " ")
				for (d in sd) { for (i = nb; i >= 1; i--) if (d + 0 >= b[i]) break; h[i] += sd[d] }
				printf "| %s | %d |", set, st
				for (i = 1; i <= nb; i++) printf " %.1f |", 100 * h[i] / st
				# KS: over every degree either has, in order
				for (d in cd) all[d + 0] = 1
				for (d in sd) all[d + 0] = 1
				m = 0; for (d in all) key[++m] = d + 0
				for (i = 2; i <= m; i++) { v = key[i]; for (j = i - 1; j >= 1 && key[j] > v; j--) key[j + 1] = key[j]; key[j + 1] = v }
				fc = fs = D = 0
				for (i = 1; i <= m; i++) {
					fc += cd[key[i]] / ct; fs += sd[key[i]] / st
					x = fc - fs; if (x < 0) x = -x; if (x > D) D = x
				}
				printf " %.1f%% | %.3f |\n", 100 * in_ / st, D
			}' "$tmp/cdeg" "$tmp/sdeg"
	done
	echo
	echo "## Provenance"
	echo
	# shellcheck source=/dev/null
	. "$here/prov.sh"
	echo "The corpus, then the sets:"
	echo
	provenance -- "$corpus"
	echo
	n=$#
	for set in "$@"; do set -- "$@" "$data/$set.gs"; done
	shift "$n"
	provenance -- "$@"
}

case ${1:-} in
stats)
	[ $# -eq 3 ] || { echo "usage: sh coverage.sh stats IN OUT" >&2; exit 2; }
	stats "$2" "$3" ;;
table)
	[ $# -ge 6 ] || { echo "usage: sh coverage.sh table DIR TITLE CORPUS DATA SET..." >&2; exit 2; }
	shift
	table "$@" ;;
*)
	echo "usage: sh coverage.sh stats|table ..." >&2
	exit 2 ;;
esac
