# prov.sh - the provenance block of a results file, sourced by table.sh,
# figs.sh, features.sh and converged.sh (and cell_f1, below):
#   provenance CONFIG... -- STREAM...
# writes a markdown code block: each CONFIG's sha256, the source tree's
# `git describe`, then the pg records (gnnstream(5)) of every STREAM, each
# stage once.  A STREAM may be text (gcn-adapt -t predictions) or binary (a
# model), compressed or not: its pg headers are found by their text, which
# is the same in both forms.  adapt.sh's per-run gcn-adapt calls differ only
# in the run (--first-run R --runs 1, into DS--ARM.txt.parts/rR.txt) and are
# listed once, with R for the run.  Paths under the checkout are written
# relative to it, so a results file says nothing of the machine it ran on.
provenance() {
	echo '```'
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		[ -f "$1" ] && sha256sum "$1"
		shift
	done
	[ $# -eq 0 ] || shift
	_pd=$(dirname "$0")
	# the checkout's own path is left out: paths are relative to it
	_root=$(cd "$_pd/.." && pwd)
	if command -v git >/dev/null 2>&1 && git -C "$_pd" rev-parse --git-dir >/dev/null 2>&1; then
		echo "source: $(git -C "$_pd" describe --always --dirty 2>/dev/null)"
	fi
	for _pf; do
		[ -s "$_pf" ] || continue
		gzip -cdf "$_pf" | LC_ALL=C tr -c '[:print:]' '\n' |
			LC_ALL=C grep -oE 'pg id=[0-9a-f]{8} prog=[^ ]+ version=[^ ]+ seed=[^ ]+ cmd=("([^"\\]|\\.)*"|[^ ]+)' ||
			true
	done | sed -E 's/^pg //; s/ --first-run [0-9]+ / --first-run R /; s/\.parts\/r[0-9]+\.txt /.parts\/rR.txt /' |
		sed "s|$_root/||g" |
		awk '{ k = $0; sub(/^id=[^ ]* /, "", k) } !seen[k]++'
	echo '```'
}

# cell_f1 DIR CELL: a cell's micro-F1 (%), "mean ± std" from DIR/score/CELL.tsv
# (evalf1 --format tsv), or from $SCORES/CELL.tsv when DIR lacks it; "[n
# runs]" after it when there are not 10, "not run" when there is none.
cell_f1() {
	_cf="$1/score/$2.tsv"
	[ -s "$_cf" ] || [ -z "${SCORES:-}" ] || _cf="$SCORES/$2.tsv"
	if [ -s "$_cf" ]; then
		awk -F '\t' '$1 == "mean" { m = $3 } $1 == "std" { s = $3 } $1 ~ /^[0-9]+$/ { n++ }
			END { printf "%.1f ± %.1f", 100 * m, 100 * s; if (n != 10) printf " [%d runs]", n }' "$_cf"
	else
		echo "not run"
	fi
}
