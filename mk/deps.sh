#!/bin/sh
# deps.sh - check the Debian packages gnnpipe needs; install the missing ones
# when run as root, else print the apt-get line and fail.
#   sh mk/deps.sh build     the build and the tests
#   sh mk/deps.sh bench     + the peers that `make bench` compares against
set -u
BUILD="gcc make pkg-config libgsl-dev zlib1g-dev libyaml-dev libcriterion-dev \
libopenblas-dev liblapacke-dev libarpack2-dev gnuplot-nox graphviz valgrind"
BENCH="python3 python3-numpy python3-scipy python3-networkx python3-igraph \
python3-graph-tool python3-torch"
case "${1:-build}" in
build) want=$BUILD ;;
bench) want="$BUILD $BENCH" ;;
*) echo "usage: sh mk/deps.sh [build|bench]" >&2; exit 2 ;;
esac
missing=""
for p in $want; do
	s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)
	[ "$s" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 || true
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >&2 && exit 0
	echo "deps: apt-get install failed" >&2
	exit 1
fi
echo "deps: missing Debian packages; run as root:" >&2
echo "  apt-get install$missing" >&2
exit 1
