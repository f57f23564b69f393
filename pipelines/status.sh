#!/bin/sh
# status.sh BUILD CELL... - how far a pipeline run has got (`make status`):
# each pre-training (done, or its last logged epoch), the adaptation cells
# done (and scored) out of all, those out of date, the ones in progress, and
# what is left per dataset and the hours of runs it needs.  ADAPT=path of
# gcn-adapt: predictions older than it count as out of date.  COPIED: the
# cells that are copies of others (no runs of their own).  Reads the stage files only; safe while make runs.
set -eu
[ $# -ge 1 ] || { echo "usage: sh status.sh BUILD [CELL...]" >&2; exit 2; }
B=$1
shift
echo "pipeline status of $B ($(date '+%F %T'))"
for s in dcbm labelled; do
	if [ -s "$B/$s.gs" ]; then echo "  $s.gs: done"; else echo "  $s.gs: not yet"; fi
done
for m in arch all rec rank cluster; do
	log="$B/train-$m.tsv"
	if [ -s "$B/model-$m.gs" ]; then
		st="done"
	elif [ -s "$log" ]; then
		st=$(awk -F '\t' 'NR > 1 { e = $1; s = $2; sc = $17 } END {
			printf "training: epoch %s logged (step %s), validation score %s", e, s, sc }' "$log")
		[ -s "$B/ckpt-$m.gs" ] && st="$st; checkpoint kept"
	elif [ -e "$log" ]; then
		st="training: no epoch logged yet"
	else
		st="not started"
	fi
	echo "  model-$m: $st"
done
[ $# -gt 0 ] || exit 0
# a cell is done when its predictions are (make -j may score them later),
# unless they are older than gcn-adapt ($ADAPT): then make redoes them
ADAPT=${ADAPT:-}
older() { [ -n "$ADAPT" ] && [ "$ADAPT" -nt "$1" ]; }
done=0 scored=0 all=0 stale=0 todo=
for c in "$@"; do
	all=$((all + 1))
	if [ -s "$B/pred/$c.txt" ] && ! older "$B/pred/$c.txt"; then
		done=$((done + 1))
		[ -s "$B/score/$c.tsv" ] && scored=$((scored + 1))
	else
		[ -s "$B/pred/$c.txt" ] && stale=$((stale + 1))
		todo="$todo $c"
	fi
done
echo "  adaptation cells done: $done of $all ($scored scored)"
[ "$stale" -eq 0 ] || echo "  out of date (older than $ADAPT), to redo: $stale"
# a cell in progress, or stopped, has OUT.parts/ with one rR.txt per
# finished run; parts older than gcn-adapt will be redone
running=
for d in "$B"/pred/*.txt.parts; do
	[ -d "$d" ] || continue
	c=${d##*/}
	if [ -f "$d/args" ] && older "$d/args"; then
		running="$running ${c%.txt.parts} (out of date, to redo)"
	else
		running="$running ${c%.txt.parts} ($(find "$d" -name 'r*.txt' | wc -l) runs done)"
	fi
done
[ -z "$running" ] || echo "  in progress or stopped:$running"
[ -n "$todo" ] || exit 0
echo "  left, per dataset:$(printf '%s\n' $todo | sed 's/--.*//' | sort | uniq -c | awk '{ printf " %s %d", $2, $1 }')"
# the time left: each cell's runs to go (RUNS less its kept runs) at the
# mean wall time of a run of its dataset and arm in runs.tsv (TIMES=1), or
# of its dataset when that arm has none logged yet
[ -s "$B/runs.tsv" ] || exit 0
for c in $todo; do
	case " ${COPIED:-} " in *" $c "*) continue ;; esac	# a copy of another cell
	k=0
	d="$B/pred/$c.txt.parts"
	if [ -d "$d" ] && ! { [ -f "$d/args" ] && older "$d/args"; }; then
		k=$(find "$d" -name 'r*.txt' | wc -l)
	fi
	echo "${c%%--*} ${c#*--} $((${RUNS:-10} - k))"
done | awk -F '\t' 'FILENAME != "-" { t[$2, $3] += $5; n[$2, $3]++; td[$2] += $5; nd[$2]++; next }
	{ split($0, f, " "); if (f[3] <= 0) next; runs += f[3]
	  if (n[f[1], f[2]]) s += f[3] * t[f[1], f[2]] / n[f[1], f[2]]
	  else if (nd[f[1]]) s += f[3] * td[f[1]] / nd[f[1]]
	  else unk += f[3] }
	END { if (!runs) exit
	  printf "  left: about %.1f hours of adaptation runs on one job (%d runs", s / 3600, runs
	  if (unk) printf "; %d of them of a dataset with no run logged yet, not counted", unk
	  print ")" }' "$B/runs.tsv" -
