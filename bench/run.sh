#!/bin/sh
# run.sh - `make bench`: every bench section (bench/*.sh) in turn, each
# printing a markdown table; all of it is also written to bench/out/results.md.
# Peers run with the Debian interpreter /usr/bin/python3.
# SECTIONS="gcn_step dcbm" (make bench SECTIONS=...) runs only the sections
# named, by their file names without .sh.  Sections too long for every run
# (embed_scale: an hour and 35 GB of disk) run only when named.
set -eu
cd "$(dirname "$0")/.."
all=$(for s in bench/*.sh; do [ "$s" = bench/run.sh ] || basename "$s" .sh; done)
long="embed_scale"
for n in ${SECTIONS:-}; do
	printf '%s\n' "$all" | grep -qx -- "$n" ||
		{ echo "bench: no section '$n'; the sections are:" $all >&2; exit 2; }
done
mkdir -p bench/out
out=bench/out/results.md
{
	echo "# gnnpipe benchmarks"
	echo
	echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo),"
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); gnnpipe $(git describe --always --dirty 2>/dev/null || echo unknown)."
	echo
	for n in ${SECTIONS:-$(printf '%s\n' $all | grep -vx "$long")}; do
		sh "bench/$n.sh"
		echo
	done
} | tee "$out"
echo "written to $out" >&2
