#!/bin/sh
# converged.sh - pre-training until the stopping rule ends it (issue 32):
# the model of `make converged` (model-long.gs: at most LONG_EPOCHS epochs,
# patience LONG_PATIENCE) against the 40-epoch model of Table 1.  Its
# training (epochs, time, precision), the validation curves of both runs
# side by side, and the Cora and IMDB-BINARY cells (micro-F1 %, mean ± std
# over the runs) beside Table 1's, then the provenance.
#   sh converged.sh DIR TITLE CONFIG...
# DIR holds train-long.tsv, model-long.gs, score/DS--ARM.tsv and
# pred/DS--ARM.txt.  Environment: SHORT_LOG, the 40-epoch run's log
# (default DIR/train-all.tsv; the full run's is kept as
# results/train-all.tsv); SCORES, a directory of score files for the cells
# DIR lacks (Table 1's, in results/scores/); LONG_EPOCHS, LONG_PATIENCE
# (for the text).
set -eu
[ $# -ge 2 ] || { echo "usage: sh converged.sh DIR TITLE [CONFIG...]" >&2; exit 2; }
here=$(dirname "$0")
. "$here/prov.sh"
dir=$1 title=$2
shift 2
long="$dir/train-long.tsv"
short=${SHORT_LOG:-$dir/train-all.tsv}
[ -s "$long" ] || { echo "converged.sh: $long missing" >&2; exit 1; }
[ -s "$short" ] || { echo "converged.sh: $short missing" >&2; exit 1; }
sets="cora imdb-binary"
# a log's columns by name: epoch, seconds, val_score, best
summary() {
	awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ e = $c["epoch"]; t = $c["seconds"]; v = $c["val_score"]
		  if ($c["best"] == 1) { be = e; bv = v } }
		END { printf "%d epochs (%d steps), %.0f s; best epoch %d, validation score %.4f\n",
			e, $c["step"], t, be, bv }' "$1"
}
prec=$(gzip -cdf "$dir/model-long.gs" | LC_ALL=C tr -c '[:print:]' '\n' |
	sed -n 's/^ *\(train\.\)\{0,1\}precision: *"*\([a-z0-9]*\)"*.*/\2/p' | head -n 1)

echo "# $title"
echo
echo "The pre-training configuration trained until the paper's stopping rule ends"
echo "it: at most ${LONG_EPOCHS:-?} epochs, stopped after ${LONG_PATIENCE:-?} epochs without a better"
echo "validation score (\`LONG_EPOCHS\`, \`LONG_PATIENCE\`); the model is the best"
echo "epoch's. Against the model of Table 1, trained for the configuration's"
echo "\`train.epochs\` (40 in the full run's \`pretrain.yaml\`)."
echo
echo "- until converged: $(summary "$long"); products in ${prec:-fp32}"
echo "- Table 1's model: $(summary "$short")"
echo
echo "## Validation score by epoch"
echo
echo "| epoch | Table 1's model | until converged |"
echo "|---|---|---|"
awk -F '\t' 'FNR == 1 { f++; for (i = 1; i <= NF; i++) c[f, $i] = i; next }
	{ v[f, $c[f, "epoch"]] = $c[f, "val_score"]; if ($c[f, "epoch"] > n) n = $c[f, "epoch"] }
	END { for (e = 1; e <= n; e++)
		if (e <= 5 || e % 5 == 0 || e == n)
			printf "| %d | %s | %s |\n", e, ((1, e) in v) ? v[1, e] : "", ((2, e) in v) ? v[2, e] : "" }' \
	"$short" "$long"
echo
echo "## Downstream, structure only"
echo
echo "Micro-F1 (%), mean ± standard deviation over the runs."
[ -z "${SCORES:-}" ] || echo "Cells this build did not run (Table 1's) come from \`${SCORES#"$here"/}\`."
echo
echo "| Method | Cora | IMDB-B |"
echo "|---|---|---|"
for arm in base pre long-pre; do
	case $arm in
	base) m="Baseline (no pre-train)" ;;
	pre) m="Pre-train, Table 1's model" ;;
	long-pre) m="Pre-train until converged" ;;
	esac
	line="| $m |"
	for s in $sets; do
		line="$line $(cell_f1 "$dir" "$s--$arm") |"
	done
	echo "$line"
done
echo
echo "## Provenance"
echo
files="$dir/model-long.gs"
for s in $sets; do
	files="$files $dir/pred/$s--long-pre.txt"
done
# shellcheck disable=SC2086
provenance "$@" -- $files
