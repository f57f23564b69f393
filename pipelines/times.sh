#!/bin/sh
# times.sh LOG - summarise a TIMES=1 stage log (timed.sh) as markdown: wall
# and CPU seconds per kind of stage, and the elapsed time of the whole run
# from the first recipe's start to the last one's end (several runs of make
# into one log: the sum of each run's elapsed time).  A recipe is logged when
# it ends, so one killed (a lost session, SIGKILL) is not in the log, and a
# resumed pre-training counts only its last part there; the pre-trainings'
# own logs (train-TASKS.tsv beside LOG) give their time over every part.
set -eu
[ $# -eq 1 ] || { echo "usage: sh times.sh LOG" >&2; exit 2; }
[ -s "$1" ] || { echo "times.sh: $1: no stage log (run make with TIMES=1)" >&2; exit 1; }
# The elapsed time merges the recipes' intervals and, from adapt.sh's run
# log beside LOG (runs.tsv: a run's end time and wall seconds), those of the
# adaptation runs: a cell stopped in one session and finished in another
# logs a recipe for the last part only, its runs every part.
runs=$(dirname "$1")/runs.tsv
[ -s "$runs" ] || runs=/dev/null
awk -F '\t' -v runs="$runs" '
function epoch(t,   c) {	# ISO time -> seconds (date(1) once per line)
	c = "date -d " t " +%s"; c | getline s; close(c); return s
}
FILENAME == runs {
	en = epoch($1); rv[++nr] = en - $5; re[nr] = en
	next
}
{
	st = epoch($1); en = st + $3
	cmd = $6; kind = "other"
	if (cmd ~ /dcbm-gen .*--config/) kind = "dcbm-gen (pre-training graphs)"
	else if (cmd ~ /\/centrality /) kind = "centrality (labels)"
	else if (cmd ~ /gcn-train / && match(cmd, /model-[a-z]+\.(stopped\.)?gs/))
		{ m = substr(cmd, RSTART, RLENGTH); sub(/\.(stopped\.)?gs$/, "", m); kind = "gcn-train " m }
	else if (cmd ~ /gcn-train /) kind = "gcn-train"
	else if (cmd ~ /^sh adapt.sh /) { split(cmd, a, " "); kind = "gcn-adapt " a[3] }
	else if (cmd ~ /evalf1 /) kind = "evalf1"
	else if (cmd ~ /table.sh|figs.sh|fig5.sh/) kind = "tables and figures"
	else if (cmd ~ /^make .*-C .*data /) kind = "data import"	# data/Makefile, untimed inside
	if (cmd ~ /^(mkdir|echo) /) next	# bookkeeping
	n[kind]++; wall[kind] += $3; cpu[kind] += $4 + $5
	if (!(kind in seen)) { seen[kind] = 1; order[++nk] = kind }
	if ($2 != 0) bad[kind]++
	# elapsed: merge the recipe intervals
	iv[++ni] = st; ie[ni] = en
	totcpu += $4 + $5
}
# the length of the union of the intervals a[1..n] to b[1..n] (sorted here)
function covered(a, b, n,   i, j, s, e, el, cs, ce) {
	for (i = 2; i <= n; i++) { s = a[i]; e = b[i]; j = i - 1
		while (j > 0 && a[j] > s) { a[j+1] = a[j]; b[j+1] = b[j]; j-- }
		a[j+1] = s; b[j+1] = e }
	if (!n) return 0
	el = 0; cs = a[1]; ce = b[1]
	for (i = 2; i <= n; i++) {
		if (a[i] > ce) { el += ce - cs; cs = a[i]; ce = b[i] }
		else if (b[i] > ce) ce = b[i]
	}
	return el + ce - cs
}
END {
	el = covered(iv, ie, ni)
	for (i = 1; i <= ni; i++) { rv[nr + i] = iv[i]; re[nr + i] = ie[i] }
	ela = covered(rv, re, nr + ni)
	printf "| stage | recipes | wall (s) | CPU (s) |\n|---|---|---|---|\n"
	for (k = 1; k <= nk; k++) { x = order[k]
		printf "| %s | %d%s | %.0f | %.0f |\n", x, n[x], bad[x] ? " (" bad[x] " failed)" : "", wall[x], cpu[x] }
	printf "\nElapsed while some stage ran: %.0f s (%.1f h); CPU in all: %.0f s (%.1f h).\n", el, el / 3600, totcpu, totcpu / 3600
	if (nr)
		printf "With the adaptation runs of cells a stop cut and a later session finished (runs.tsv): %.0f s (%.1f h) elapsed.\n", ela, ela / 3600
}' "$runs" "$1"
# The pre-trainings from their logs: column 'seconds' counts from the start
# of each gcn-train process, so a drop marks a resumed part; the time of a
# part is its last line's.  An epoch a kill cut short is not counted.
d=$(dirname "$1")
set -- "$d"/train-*.tsv
if [ -s "$1" ]; then
	printf '\nPre-training, from the training logs (every resumed part; an epoch cut short by a kill is not counted):\n\n'
	printf '| model | epochs logged | parts | seconds |\n|---|---|---|---|\n'
fi
for f; do
	[ -s "$f" ] || continue
	awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") c = i; next }
	c && $c + 0 < prev { tot += prev; parts++ }
	c { prev = $c + 0; ep = $1 }
	END { if (!c) exit
		m = FILENAME; sub(/.*\/train-/, "", m); sub(/\.tsv$/, "", m)
		printf "| model-%s | %d | %d | %.0f |\n", m, ep, parts + 1, tot + prev }' "$f"
done
# The adaptation runs from adapt.sh's run log (TIMES=1 sets RUN_LOG): every
# finished run, in whichever session it ran; a run done again (a changed
# input) counts once, with its last time.
[ -s "$d/runs.tsv" ] || exit 0
printf '\nAdaptation, from the run log (every finished run, in every session):\n\n'
awk -F '\t' '
{ k = $2 SUBSEP $3 SUBSEP $4; if (!(k in w)) { order[++n] = k }; w[k] = $5; c[k] = $6 }
END {
	for (i = 1; i <= n; i++) { k = order[i]; split(k, p, SUBSEP); ds = p[1]
		if (!(ds in runs)) dss[++nd] = ds
		runs[ds]++; if (!((ds SUBSEP p[2]) in cell)) { cell[ds SUBSEP p[2]] = 1; cells[ds]++ }
		wall[ds] += w[k]; cpu[ds] += c[k] }
	printf "| dataset | cells | runs | wall (s) | CPU (s) |\n|---|---|---|---|---|\n"
	for (i = 1; i <= nd; i++) { ds = dss[i]
		printf "| %s | %d | %d | %.0f | %.0f |\n", ds, cells[ds], runs[ds], wall[ds], cpu[ds]
		tc += cells[ds]; tr += runs[ds]; tw += wall[ds]; tu += cpu[ds] }
	printf "| all | %d | %d | %.0f | %.0f |\n", tc, tr, tw, tu
}' "$d/runs.tsv"
