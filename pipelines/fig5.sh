#!/bin/sh
# fig5.sh - reproduce the paper's Figure 5: DCBM graphs at the four corners
# of dcbm-gen's parameter space, drawn with Graphviz, and their degree
# distributions, drawn with gnuplot.
#
#   (a) dense,  power-law   (b) dense,  uniform
#   (c) sparse, power-law   (d) sparse, uniform
#
# Density is the paper's k (target mean degree 10 k, dcbm-gen -k); the degree
# shape is gamma (theta density ~ theta^-gamma, dcbm-gen --gamma: small gamma
# = heavy tail, large gamma = nearly uniform). The corners, the node count,
# K, p/q and the seed are fixed below, so a rerun writes the same streams,
# .dot files and degree tables.
#
# Usage:   sh pipelines/fig5.sh OUTDIR [BINDIR]
#          BINDIR defaults to ../bin relative to this script (the repo's bin/).
# Needs:   dcbm-gen (BINDIR), sfdp, gvpr, gvpack, neato (Debian graphviz),
#          gnuplot (pngcairo and svg terminals), awk, sed.
# Writes:  OUTDIR/fig5.png, fig5.svg            the four drawings, 2x2
#          OUTDIR/fig5-degrees.png, .svg        degree CCDFs, log-log
#          OUTDIR/fig5.md                       images, captions, provenance
#          OUTDIR/fig5-work/                    intermediate files:
#              X.gs          dcbm-gen text stream of corner X (a..d)
#              X.dot         the graph as DOT, before layout
#              X.layout.dot  after sfdp, with its panel title
#              X.deg.tsv     node, cluster, degree
#              X.ccdf.tsv    degree d, number and fraction of nodes of degree >= d
#              fig5.packed.dot  the four layouts packed 2x2 by gvpack
#              degrees.gp    the gnuplot script (terminal lines excepted)
#              stats.tsv     per corner: k gamma n m mean max isolated target
#              ref-gamma2.gs the dense corner at gamma = 2, measured for the caption
# Every output is built in a staging directory and moved into place at the
# end, so a failed run never leaves a half-written file.

set -eu

prog=fig5.sh
die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }

usage() { printf 'usage: sh fig5.sh OUTDIR [BINDIR]\n' >&2; exit 2; }
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ -z "$1" ]; then usage; fi
OUTDIR=$1

scriptdir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
if [ $# -ge 2 ]; then
	BINDIR=$2
else
	BINDIR=$scriptdir/../bin
fi
[ -d "$BINDIR" ] || die "BINDIR $BINDIR does not exist (run 'make' in the repository first)"
BINDIR=$(CDPATH='' cd -- "$BINDIR" && pwd)
DCBM=$BINDIR/dcbm-gen
[ -x "$DCBM" ] || die "missing tool: $DCBM (run 'make' in the repository first)"
for t in sfdp gvpr gvpack neato gnuplot awk sed; do
	command -v "$t" >/dev/null 2>&1 || die "missing tool: $t (Debian packages graphviz, gnuplot-nox)"
done

# ---- parameters -----------------------------------------------------------
SEED=1          # one seed for all four: same clusters and same uniforms
NODES=400
CLUSTERS=4
PDIVQ=5         # in-/between-cluster probability ratio (paper range 3..6)
K_DENSE=2       # paper range 0.1..2: dense end (target mean degree 20)
K_SPARSE=0.3    # sparse end (target mean degree 3)
G_POW=2.5     # heavy tail (2 is the edge of the range: see the caption)
G_UNI=10        # nearly uniform expected degrees

# corner LETTER -> "k gamma density shape"
corner() {
	case $1 in
	a) echo "$K_DENSE $G_POW dense power-law" ;;
	b) echo "$K_DENSE $G_UNI dense uniform" ;;
	c) echo "$K_SPARSE $G_POW sparse power-law" ;;
	d) echo "$K_SPARSE $G_UNI sparse uniform" ;;
	esac
}

# ---- staging --------------------------------------------------------------
mkdir -p "$OUTDIR"
OUTDIR=$(CDPATH='' cd -- "$OUTDIR" && pwd)
stage=$OUTDIR/.fig5-tmp.$$
rm -rf "$stage"
mkdir "$stage" "$stage/work"
trap 'rm -rf "$stage"' EXIT
trap 'exit 1' HUP INT TERM
W=$stage/work

version=$("$DCBM" --version)

# Okabe-Ito palette, cycled by cluster id
PALETTE='#E69F00 #56B4E9 #009E73 #CC79A7 #D55E00 #0072B2 #F0E442 #000000'

: >"$stage/commands.txt"
: >"$stage/stats.tsv"
for X in a b c d; do
	# shellcheck disable=SC2046 # split "k gamma density shape" on purpose
	set -- $(corner $X)
	k=$1 g=$2 dens=$3 shape=$4

	# 1. the graph, as a text stream (kept as X.gs)
	args="-q -t -j 1 --count 1 --seed $SEED --nodes $NODES --clusters $CLUSTERS --p-div-q $PDIVQ -k $k --gamma $g"
	# shellcheck disable=SC2086
	"$DCBM" $args >"$W/$X.gs" || die "dcbm-gen failed for corner ($X)"
	printf '%s\n' "dcbm-gen $args > fig5-work/$X.gs" >>"$stage/commands.txt"

	# 2. parse it: DOT file, degree table, CCDF, one stats line
	#    stats: letter k gamma nodes edges mean max isolated target realised pg
	awk -v X="$X" -v k="$k" -v g="$g" -v dens="$dens" -v shape="$shape" \
	    -v pal="$PALETTE" -v W="$W" '
	function attr(line, key,   i, n, f, a) {
		n = split(line, f, /[ \t]+/)
		for (i = 1; i <= n; i++)
			if (index(f[i], key "=") == 1)
				return substr(f[i], length(key) + 2)
		return ""
	}
	BEGIN { m = 0; row = 0; seen = 0 }
	/^##/ { next }
	/^@graph/ {
		if (seen) { print "fig5: more than one graph in the stream" > "/dev/stderr"; bad = 1; exit 3 }
		seen = 1; sect = "graph"
		n = attr($0, "nodes") + 0; mexp = attr($0, "edges") + 0
		target = attr($0, "mean_degree_target"); real = attr($0, "mean_degree")
		pg = attr($0, "pg")
		next
	}
	/^@tensor/ { sect = (attr($0, "name") == "cluster") ? "cluster" : "other"; row = 0; next }
	/^@/ { sect = "other"; next }
	sect == "graph" && NF >= 2 && $1 == $2 { print "fig5: self-loop in the stream" > "/dev/stderr"; bad = 1; exit 3 }
	sect == "graph" && NF >= 2 { deg[$1]++; deg[$2]++; eu[m] = $1; ev[m] = $2; m++; next }
	sect == "cluster" && NF >= 1 { cl[row++] = $1; next }
	END {
		if (bad) exit 3
		if (!seen) { print "fig5: no graph record in the stream" > "/dev/stderr"; exit 3 }
		if (m != mexp) { print "fig5: edge count does not match the header" > "/dev/stderr"; exit 3 }
		if (row != n) { print "fig5: cluster tensor missing or of the wrong size" > "/dev/stderr"; exit 3 }
		npal = split(pal, col, " ")
		# edge colour: fainter the more edges there are
		alpha = int(0.09 * 255 * 4000 / (m > 400 ? m : 400))
		if (alpha > 200) alpha = 200
		if (alpha < 40) alpha = 40
		ecol = sprintf("#303030%02X", alpha)
		pw = (m > 1500) ? 0.35 : 0.7
		dot = W "/" X ".dot"; degf = W "/" X ".deg.tsv"
		printf "graph \"%s\" {\n", X > dot
		printf "  graph [outputorder=edgesfirst, overlap=prism, start=1, pad=0.1];\n" > dot
		printf "  node [shape=circle, style=filled, fixedsize=true, label=\"\", penwidth=0.3, color=\"#333333\"];\n" > dot
		printf "  edge [color=\"%s\", penwidth=%s];\n", ecol, pw > dot
		printf "node\tcluster\tdegree\n" > degf
		sum = 0; max = 0; iso = 0
		for (u = 0; u < n; u++) {
			d = deg[u] + 0; sum += d
			if (d > max) max = d
			if (d == 0) iso++
			cnt[d]++
			w = 0.05 + 0.012 * sqrt(d)
			printf "  %s_%d [fillcolor=\"%s\", width=%.3f];\n", X, u, col[cl[u] % npal + 1], w > dot
			printf "%d\t%d\t%d\n", u, cl[u], d > degf
		}
		for (i = 0; i < m; i++)
			printf "  %s_%d -- %s_%d;\n", X, eu[i], X, ev[i] > dot
		print "}" > dot
		# complementary cumulative distribution P(D >= d), d = 0..max
		ccf = W "/" X ".ccdf.tsv"
		printf "degree\tnodes_ge\tfraction_ge\n" > ccf
		ge = n
		for (d = 0; d <= max; d++) {
			if (cnt[d] > 0) printf "%d\t%d\t%.6g\n", d, ge, ge / n > ccf
			ge -= cnt[d]
		}
		printf "%s\t%s\t%s\t%d\t%d\t%.2f\t%d\t%d\t%s\t%s\t%s\n", \
			X, k, g, n, m, (n ? sum / n : 0), max, iso, target, real, pg
	}' "$W/$X.gs" >>"$stage/stats.tsv" || die "could not parse the stream of corner ($X)"

	# 3. layout with sfdp, then add the panel title above the drawing
	#    (a plaintext node pinned above the bounding box, which is enlarged
	#    so that gvpack keeps the title clear of the neighbouring panel)
	sfdp -Tdot "$W/$X.dot" >"$W/$X.sfdp.dot" || die "sfdp failed for corner ($X)"
	# shellcheck disable=SC2016 # the gvpr program is single-quoted on purpose
	gvpr -c -a "$X \"($X) $dens, $shape\" \"k = $k,  γ = $g\"" '
	BEG_G {
		double llx, lly, urx, ury, cx;
		sscanf($G.bb, "%lf,%lf,%lf,%lf", &llx, &lly, &urx, &ury);
		cx = (llx + urx) / 2;
		node_t t = node($G, sprintf("title_%s", ARGV[0]));
		aset(t, "shape", "plaintext");
		aset(t, "style", "");
		aset(t, "fixedsize", "true");
		aset(t, "label", sprintf("%s\\n%s", ARGV[1], ARGV[2]));
		aset(t, "fontsize", "24");
		aset(t, "fontname", "DejaVu Sans");
		aset(t, "width", "4.6");
		aset(t, "height", "0.9");
		aset(t, "pos", sprintf("%.2f,%.2f", cx, ury + 45));
		if (urx - llx < 360) { llx = cx - 180; urx = cx + 180; }
		$G.bb = sprintf("%.2f,%.2f,%.2f,%.2f", llx, lly, urx, ury + 80);
	}' "$W/$X.sfdp.dot" >"$W/$X.layout.dot" || die "gvpr failed for corner ($X)"
	rm -f "$W/$X.sfdp.dot"
done

# ---- reference: the dense corner at gamma = 2, the range's lower end --------
# Not drawn; measured only, to justify the power-law gamma in the caption.
args="-q -t -j 1 --count 1 --seed $SEED --nodes $NODES --clusters $CLUSTERS --p-div-q $PDIVQ -k $K_DENSE --gamma 2"
# shellcheck disable=SC2086
"$DCBM" $args >"$W/ref-gamma2.gs" || die "dcbm-gen failed for the gamma = 2 reference"
printf '%s\n' "dcbm-gen $args > fig5-work/ref-gamma2.gs" >>"$stage/commands.txt"
ref=$(awk '
	/^@graph/ { g = 1; n = 0
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^nodes=/) n = substr($i, 7) + 0
			if ($i ~ /^mean_degree_target=/) t = substr($i, 20)
		}
		next }
	/^@/ { g = 0; next }
	g && NF >= 2 { deg[$1]++; deg[$2]++; m++ }
	END { max = 0; for (u in deg) if (deg[u] > max) max = deg[u]
	      printf "%d edges, mean degree %.2f (target %s), max degree %d", m, (n ? 2 * m / n : 0), t, max }
' "$W/ref-gamma2.gs") || die "could not parse the gamma = 2 reference"

# ---- 2x2 drawing: gvpack in input order, 2 columns, then neato -n2 ---------
gvpack -array_i2 -m 40 "$W/a.layout.dot" "$W/b.layout.dot" \
	"$W/c.layout.dot" "$W/d.layout.dot" >"$W/fig5.packed.dot" 2>"$stage/gvpack.err" ||
	{ cat "$stage/gvpack.err" >&2; die "gvpack failed"; }
# gvpack warns about the pos attribute of the root graph; nothing else expected
grep -v -i 'warning' "$stage/gvpack.err" >&2 || :
for fmt in png svg; do
	neato -s -n2 -Gbgcolor=white -Gdpi=96 -Gpad=0.3 -T$fmt \
		"$W/fig5.packed.dot" >"$stage/fig5.$fmt" || die "neato -n2 failed (fig5.$fmt)"
done

# ---- degree distributions --------------------------------------------------
{
	cat <<EOF
set datafile separator "\t"
set logscale xy
set xlabel "degree d"
set ylabel "fraction of nodes with degree >= d"
set key top right box opaque
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set title "Degree distributions (CCDF) of the four DCBM corners, n = $NODES, K = $CLUSTERS, seed $SEED"
set yrange [*:1.2]
EOF
	printf 'plot '
	sep=''
	for X in a b c d; do
		# shellcheck disable=SC2046 # split "k gamma density shape" on purpose
		set -- $(corner $X)
		case $X in a) c='#D55E00' pt=7 ;; b) c='#0072B2' pt=5 ;; c) c='#E69F00' pt=9 ;; d) c='#009E73' pt=13 ;; esac
		printf '%s"%s" skip 1 using 1:3 with linespoints lw 2 pt %s ps 0.8 lc rgb "%s" title "(%s) %s, %s (k = %s, γ = %s)"' \
			"$sep" "$X.ccdf.tsv" "$pt" "$c" "$X" "$3" "$4" "$1" "$2"
		sep=', \
     '
	done
	printf '\n'
} >"$stage/degrees.gp"
# degree 0 cannot be shown on a log axis: rows with d = 0 are skipped by gnuplot
{ printf 'set terminal pngcairo size 960,680 enhanced font "DejaVu Sans,11"\nset output "%s"\n' "$stage/fig5-degrees.png"; cat "$stage/degrees.gp"; printf 'unset output\n'; } |
	(cd "$W" && gnuplot) 2>"$stage/gnuplot.err" || { cat "$stage/gnuplot.err" >&2; die "gnuplot failed (png)"; }
{ printf 'set terminal svg size 960,680 enhanced font "DejaVu Sans,11" background "white"\nset output "%s"\n' "$stage/fig5-degrees.svg"; cat "$stage/degrees.gp"; printf 'unset output\n'; } |
	(cd "$W" && gnuplot) 2>"$stage/gnuplot.err" || { cat "$stage/gnuplot.err" >&2; die "gnuplot failed (svg)"; }
# gnuplot warns about log-scale points at 0 (degree-0 rows); other messages are shown
grep -v -i 'warning' "$stage/gnuplot.err" >&2 || :
cp "$stage/degrees.gp" "$W/degrees.gp"

# ---- markdown --------------------------------------------------------------
# stats.tsv: X k gamma n m mean max iso target realised pg
cap_list=$(awk -F'\t' '
	BEGIN { name["a"] = "dense, power-law"; name["b"] = "dense, uniform"
		name["c"] = "sparse, power-law"; name["d"] = "sparse, uniform" }
	{ printf "%s(%s) %s, k = %s, gamma = %s: %d edges, mean degree %.2f (target %s), max degree %d, %d isolated nodes", \
		(NR > 1 ? "; " : ""), $1, name[$1], $2, $3, $5, $6, $9, $7, $8 }' "$stage/stats.tsv")
pgs=$(awk -F'\t' '{ printf "%s(%s) %s", (NR > 1 ? ", " : ""), $1, $11 }' "$stage/stats.tsv")

{
	cat <<EOF
![Figure 5: DCBM graphs at the four corners of the parameter space](fig5.png)

**Figure 5.** Four graphs drawn from the degree-corrected stochastic block
model of dcbm-gen, one at each corner of the pre-training parameter space:
density k in the paper's range 0.1..2 (target mean degree 10 k) and degree
exponent gamma in 2..10 (small gamma: heavy, power-law tail of the degree
corrections theta; large gamma: nearly equal expected degrees). Every graph
has n = $NODES nodes, K = $CLUSTERS planted clusters (node colour), in/between
cluster probability ratio p/q = $PDIVQ and seed $SEED; dense is k = $K_DENSE,
sparse is k = $K_SPARSE, power-law is gamma = $G_POW, uniform is gamma = $G_UNI.
Node size grows with the square root of the degree; layout by Graphviz sfdp,
packed 2x2 with gvpack. Measured on the generated edges: $cap_list.
The power-law corner uses gamma = $G_POW rather than the range's lower end 2:
at gamma = 2 the Pareto law of theta has no finite mean, one node takes most of
the normalised theta, and clipping p_uv at 1 leaves a few hubs with a small
fraction of the target degree (see dcbm-gen(1), CAVEATS): with the same seed,
n, K and p/q, k = $K_DENSE and gamma = 2 give $ref (fig5-work/ref-gamma2.gs).
(Vector version: [fig5.svg](fig5.svg).)

![Degree distributions of the four graphs of Figure 5](fig5-degrees.png)

**Figure 5, degree distributions.** Complementary cumulative degree
distribution P(D >= d) of each of the four graphs, log-log (nodes of degree 0
cannot be shown on the log axis and are counted in the caption above). The
power-law corners (gamma = $G_POW) have a straight-ish, slowly falling tail
reaching far beyond the mean; the uniform corners (gamma = $G_UNI) fall off
sharply just above their mean, Poisson-like. Measured: $cap_list.
(Vector version: [fig5-degrees.svg](fig5-degrees.svg).)

Provenance: \`$version\`; graphs made by
EOF
	# shellcheck disable=SC2016 # literal backquotes for markdown
	sed 's/.*/`&`;/' "$stage/commands.txt" | sed '$ s/;$/./'
	printf '%s\n' "(dcbm-gen in \`$BINDIR\`; stream pg ids $pgs). Intermediate files in \`fig5-work/\`; regenerate with \`sh pipelines/fig5.sh OUTDIR\`."
} >"$stage/fig5.md"

# ---- move into place -------------------------------------------------------
cp "$stage/stats.tsv" "$W/stats.tsv"
mkdir -p "$OUTDIR/fig5-work"
for f in "$W"/*; do
	mv -f "$f" "$OUTDIR/fig5-work/"
done
for f in fig5.svg fig5-degrees.svg fig5.md fig5-degrees.png fig5.png; do
	mv -f "$stage/$f" "$OUTDIR/$f"
done

printf '%s: wrote %s/fig5.png, fig5.svg, fig5-degrees.png, fig5-degrees.svg, fig5.md\n' "$prog" "$OUTDIR" >&2
