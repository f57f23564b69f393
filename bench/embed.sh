#!/bin/sh
# embed.sh - `make bench` section "gcn-embed on a large graph": the shipped
# model's embeddings (all three blocks, d = 512) of a DCBM graph of BIG_N
# nodes and mean degree 20 (10^6 nodes, 10^7 edges by default), written to a
# .npy file with 2 threads: wall and CPU time, peak RSS; the same encoder
# forward in the PyTorch reference of ../shared/bench (torch_gcn_ref.py's
# model, its encode(), under no_grad) on the same graph and features, in the
# same run.  Markdown on stdout, progress on stderr; see bench/embed_torch.py.
#
#   sh bench/embed.sh [OUTDIR]        (default /tmp/gnnpipe-embedbench)
# Environment: BIG_N (default 1000000), RUNS (default 3; the median is shown).
set -eu
cd "$(dirname "$0")/.."
top=$PWD
out=${1:-/tmp/gnnpipe-embedbench}
n=${BIG_N:-1000000}
runs=${RUNS:-3}
mkdir -p "$out"
PY=/usr/bin/python3
g="$out/dcbm-$n.gs"
if [ ! -s "$g" ]; then
	echo "embed.sh: a DCBM graph of $n nodes, mean degree 20" >&2
	bin/dcbm-gen -q -j 2 -s 1 --count 1 --nodes "$n" --clusters 10 --gamma 3 \
		--mean-degree 20 -o "$g"
fi
m=$(bin/dcbm-gen -q -s 1 --count 1 --nodes "$n" --clusters 10 --gamma 3 --mean-degree 20 -t |
	sed -n 's/^@graph .* edges=\([0-9]*\) .*/\1/p')
# time PROG...: "wall cpu peak_rss_mib" of one run (GNU time's format)
tm() {
	/usr/bin/time -f '%e %U %S %M' -o "$out/time" "$@" >/dev/null 2>"$out/err" ||
		{ cat "$out/err" >&2; exit 1; }
	awk '{ printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024 }' "$out/time"
}
med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
: >"$out/ours"
: >"$out/feat"
r=0
while [ "$r" -lt "$runs" ]; do
	echo "embed.sh: gcn-embed, run $((r + 1)) of $runs (load $(cut -d' ' -f1 /proc/loadavg))" >&2
	tm bin/gcn-embed -q -j 2 --npy "$out/emb.npy" "$g" >>"$out/ours"
	tm bin/nodefeat -q -j 2 -l 0 -o "$out/feat.gs" "$g" >>"$out/feat"
	r=$((r + 1))
done
load=$(cut -d' ' -f1-3 /proc/loadavg)
w=$(cut -d' ' -f1 "$out/ours" | med) c=$(cut -d' ' -f2 "$out/ours" | med)
rss=$(cut -d' ' -f3 "$out/ours" | med) fw=$(cut -d' ' -f1 "$out/feat" | med)
echo "embed.sh: the PyTorch reference's encoder on the same graph" >&2
bin/nodefeat -q -t "$out/feat.gs" >"$out/feat.txt"
"$PY" bench/embed_torch.py --graph "$g" --features "$out/feat.txt" --runs "$runs" \
	--threads 2 --bench "$top/../shared/bench" >"$out/torch" || { echo "embed.sh: PyTorch failed" >&2; exit 1; }
tw=$(sed -n 's/^forward_s //p' "$out/torch") trss=$(sed -n 's/^peak_rss_mib //p' "$out/torch")
tv=$(sed -n 's/^torch_version //p' "$out/torch")
echo "## gcn-embed on a large graph"
echo
echo "The shipped model (d = 512, 3 blocks) on a DCBM graph of $n nodes and $m edges,"
echo "2 threads, median of $runs runs; load average $load at the end."
echo
echo "| | wall s | CPU s | peak RSS MiB |"
echo "|---|---|---|---|"
echo "| \`gcn-embed --npy\` (read, features, encoder, write $n x 1536 floats) | $w | $c | $rss |"
echo "| of which the four features (\`nodefeat\` alone) | $fw | | |"
echo "| PyTorch $tv reference encoder, forward under no_grad (features given) | $tw | | $trss |"
echo
awk -v a="$w" -v f="$fw" -v t="$tw" -v r="$rss" -v tr="$trss" 'BEGIN {
	printf "Ratios: ours (less the features) / PyTorch forward = %.2f; peak RSS ours / PyTorch = %.2f.\n",
		(a - f) / t, r / tr }'
