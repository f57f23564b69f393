#!/bin/sh
# embed_scale.sh - `make bench SECTIONS=embed_scale` (not in the default
# set: about an hour of two cores and 35 GB of disk at 10^7 nodes):
# gcn-embed's peak resident set in bounded memory (--store, gcn-embed(1)).
# The shipped model (d = 512, three blocks) on DCBM graphs of mean degree
# 20 made as bench/embed.sh makes them: below 5 10^6 nodes every block
# to a .npy file with each store; from there (10^7 nodes, 10^8 edges) the
# last block to a .npy file with the default store (auto: the first that
# fits the machine, said on stderr; every block would be 61 GB).  Wall and CPU time, peak RSS and its bytes a
# node; markdown on stdout, progress on stderr.  The outputs are removed
# after each run.
#
#   sh bench/embed_scale.sh [OUTDIR]     (default /tmp/gnnpipe-embedscale)
# Environment: SIZES (default "1000000 10000000"), STORES (default "fp32
# bf16 file", below 5 10^6 nodes), TMPDIR (where --store file's scratch
# goes; default OUTDIR).
set -eu
cd "$(dirname "$0")/.."
out=${1:-/tmp/gnnpipe-embedscale}
sizes=${SIZES:-1000000 10000000}
stores=${STORES:-fp32 bf16 file}
mkdir -p "$out"
TMPDIR=${TMPDIR:-$out}
export TMPDIR
# time PROG...: "wall cpu peak_rss_kib" of one run (GNU time's format)
tm() {
	/usr/bin/time -f '%e %U %S %M' -o "$out/time" "$@" >/dev/null 2>"$out/err" ||
		{ cat "$out/err" >&2; exit 1; }
	awk '{ printf "%.0f %.0f %d\n", $1, $2 + $3, $4 }' "$out/time"
}
# row N M OPTIONS... : one run's table row
row() {
	n=$1 m=$2
	shift 2
	echo "embed_scale.sh: gcn-embed $* on $n nodes (load $(cut -d' ' -f1 /proc/loadavg))" >&2
	set -- $(tm nice -n 5 bin/gcn-embed -j 2 "$@" "$out/dcbm-$n.gs") "$@"
	w=$1 c=$2 k=$3
	shift 3
	st=$(sed -n 's/.*(--store \([a-z0-9]*\);.*/\1/p' "$out/err")
	rm -f "$out/e.npy"
	printf '| %s | %s | `%s`%s | %s | %s | %.0f | %.0f |\n' "$n" "$m" "$(echo "$*" | sed "s|$out/||g")" \
		"${st:+ (auto took $st)}" "$w" "$c" "$(echo "$k" | awk '{ print $1 / 1024 }')" \
		"$(echo "$k $n" | awk '{ print $1 * 1024 / $2 }')"
}
echo "## gcn-embed in bounded memory"
echo
echo "The shipped model (d = 512, 3 blocks), DCBM graphs of mean degree 20, 2 threads,"
echo "one run each; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
echo
echo "| nodes | edges | options | wall s | CPU s | peak RSS MiB | bytes a node |"
echo "|---|---|---|---|---|---|---|"
for n in $sizes; do
	g="$out/dcbm-$n.gs"
	if [ ! -s "$g" ]; then
		echo "embed_scale.sh: a DCBM graph of $n nodes, mean degree 20" >&2
		nice -n 5 bin/dcbm-gen -q -j 2 -s 1 --count 1 --nodes "$n" --clusters 10 --gamma 3 \
			--mean-degree 20 -o "$g"
	fi
	# the edges, from the refusal at the graph's header (nothing read)
	m=$(GNNPIPE_MEMORY=1K bin/gcn-embed "$g" 2>&1 | sed -n 's/.* nodes, \([0-9]*\) edges).*/\1/p')
	if [ "$n" -lt 5000000 ]; then
		for s in $stores; do
			row "$n" "$m" -q --store "$s" --npy "$out/e.npy"
		done
	else
		row "$n" "$m" --embedding block3 --npy "$out/e.npy"
	fi
done
echo
echo "Load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
