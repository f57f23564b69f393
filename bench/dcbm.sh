#!/bin/sh
# dcbm.sh - `make bench` section: dcbm-gen against networkx's and
# graph-tool's SBM generators, and the time of the paper's 1024-graph set.
# Prints markdown on stdout (progress on stderr).  See bench/dcbm_gen.py.
set -eu
cd "$(dirname "$0")/.."
[ -x bin/dcbm-gen ] || { echo "dcbm.sh: bin/dcbm-gen missing; run make" >&2; exit 1; }
exec /usr/bin/python3 bench/dcbm_gen.py --bin bin/dcbm-gen "$@"
