#!/bin/sh
# adapt.sh - `make bench` section "Adaptation": the time of one gcn-adapt
# run (run 0 of the default protocol: at most 200 epochs, patience 50) with
# the shipped d = 512 model on Cora (node task) and ML-100K (link task),
# from gcn-adapt's own GNN_PROFILE=1 table: epochs, wall and CPU seconds,
# CPU milliseconds an epoch and the encoder's share (its forward and
# backward passes, most of it GEMMs), with the load average beside them,
# since the machine may be shared.  Markdown on stdout, progress on stderr.
#
#   sh bench/adapt.sh
#
# Environment (defaults): RUNS=3 (timed repeats of the same run; the
# median), THREADS=1 (gcn-adapt -j; the pipelines run one thread a run),
# MODEL=models/gcn-pretrain.gs, DATASETS="cora ml-100k" (any of data/'s
# Makefile targets: cora, ml-100k, ml-1m, imdb-binary, ...).  About 2
# minutes of CPU per repeat at the defaults.
set -eu
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
THREADS=${THREADS:-1}
MODEL=${MODEL:-models/gcn-pretrain.gs}
DATASETS=${DATASETS:-cora ml-100k}
[ -x bin/gcn-adapt ] || { echo "adapt.sh: bin/gcn-adapt missing; run make" >&2; exit 1; }
[ -f "$MODEL" ] || { echo "adapt.sh: $MODEL missing" >&2; exit 1; }
OUT=$(mktemp -d "${TMPDIR:-/tmp}/gnnpipe-adapt.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
trap 'exit 130' INT TERM

echo "## Adaptation: one gcn-adapt run"
echo
echo "gcn-adapt -j $THREADS, run 0 of seed 0 with $MODEL, the median of $RUNS repeats;"
echo "load: the 1-minute load average at the end of each repeat (range; $(nproc) cores)."
echo
echo "| dataset | task | epochs | wall s | CPU s | CPU ms/epoch | encoder fwd+bwd share | load |"
echo "|---|---|---|---|---|---|---|---|"
for ds in $DATASETS; do
	case $ds in
	ml-*) task=link ;;
	imdb-* | proteins | mutag) task=graph ;;
	*) task=node ;;
	esac
	make -s -C data "$ds.gs" >&2 || { echo "adapt.sh: data/$ds.gs cannot be made" >&2; continue; }
	i=0
	: >"$OUT/$ds.tsv"
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		echo "adapt.sh: $ds, repeat $i of $RUNS" >&2
		GNN_PROFILE=1 bin/gcn-adapt -q -j "$THREADS" --model "$MODEL" -s 0 --first-run 0 \
			--runs 1 --task "$task" "data/$ds.gs" >/dev/null 2>"$OUT/err"
		# "gcn-adapt: profile: 1 runs, E epochs, V evaluations; wall W s, CPU C s; load L ..."
		awk '/^gcn-adapt: profile:/ { e = $5; w = $10; c = $13; l = $16 }
		     /^encoder forward \+ mix/ || /^mix \+ encoder backward/ { enc += $(NF - 2) }
		     END { if (e == "") exit 1; printf "%s\t%s\t%s\t%s\t%s\n", e, w, c, enc, l }' \
			"$OUT/err" >>"$OUT/$ds.tsv" ||
			{ echo "adapt.sh: $ds: no profile from gcn-adapt:" >&2; cat "$OUT/err" >&2; exit 1; }
	done
	# the repeat of median CPU time, and the range of the load
	sort -t "$(printf '\t')" -k3,3g "$OUT/$ds.tsv" | awk -F '\t' -v ds="$ds" -v task="$task" '
		{ row[NR] = $0; if (NR == 1 || $5 < lo) lo = $5; if (NR == 1 || $5 > hi) hi = $5 }
		END { split(row[int((NR + 1) / 2)], v, "\t")
		      printf "| %s | %s | %d | %.1f | %.1f | %.0f | %.0f%% | %.1f-%.1f |\n", ds, task,
			  v[1], v[2], v[3], 1000 * v[3] / v[1], 100 * v[4] / v[3], lo, hi }'
done
echo
echo "CPU ms/epoch is the run's CPU time over its epochs (setup, features and the"
echo "last evaluation included); run gcn-adapt with GNN_PROFILE=1 for every phase."
