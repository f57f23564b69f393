#!/bin/sh
# valgrind.sh - a short pipeline through every program under valgrind's
# memcheck (`make test-valgrind`): no invalid read or write, no use of an
# uninitialised value, no definite or indirect leak, in any stage.
#
#   dcbm-gen | mask-edges | nodefeat | centrality > labelled.gs
#   gcn-train labelled.gs > model.gs
#   gcn-adapt --model (node task) ; evalf1
#   graph-import (an edge list with edge labels) ; gcn-adapt --task link
#   gcn-embed (a stream, a .npy file) ; linprobe ; evalf1 --baseline
#   gcn-train --features COMMAND
#
# Each program runs alone under valgrind (not as a pipe of valgrinds: one
# failure then names its stage).  OMP_WAIT_POLICY is set, so that the gcn
# programs do not re-execute themselves to set it (opt.c), and each program
# runs with -j 2 so that the OpenMP paths are checked too.  Suppressions:
# tests/valgrind.supp (the runtime's, never ours).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN=${GNN_BIN:-$TOP/bin}
command -v valgrind >/dev/null 2>&1 ||
	{ echo "valgrind.sh: valgrind not found (Debian package valgrind)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gnn-vg.XXXXXX")
trap 'rm -rf "$T"' EXIT
export OMP_WAIT_POLICY=passive OPENBLAS_NUM_THREADS=1
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect
	--errors-for-leak-kinds=definite,indirect --track-origins=yes
	--suppressions=$TOP/tests/valgrind.supp"
fails=0 n=0
# vg NAME PROG ARGS...: run BIN/PROG under valgrind, stdin from ARGS' <
vg() {
	name=$1
	shift
	n=$((n + 1))
	if $VG --log-file="$T/$name.vg" "$@" 2>"$T/$name.err"; then
		echo "ok   $name"
	else
		echo "FAIL $name (exit $?)"
		sed 's/^/  | /' "$T/$name.err" "$T/$name.vg" | head -60
		fails=$((fails + 1))
	fi
}

vg dcbm-gen $BIN/dcbm-gen -q -j 2 -s 1 --count 12 --nodes 40..80 -o "$T/g.gs"
vg mask-edges $BIN/mask-edges -q -j 2 -s 2 -o "$T/m.gs" "$T/g.gs"
vg nodefeat $BIN/nodefeat -q -j 2 -o "$T/f.gs" "$T/m.gs"
vg centrality $BIN/centrality -q -j 2 -o "$T/lab.gs" "$T/f.gs"
vg gcn-train $BIN/gcn-train -q -j 2 -s 3 --hidden 16 --epochs 2 --batch 4 --validation 4 \
	--checkpoint "$T/ck.gs" --log "$T/train.tsv" -o "$T/model.gs" "$T/lab.gs"
# downstream: a node task on one DCBM graph (its clusters as the classes)
# and a link task on an imported edge list with two edge classes
vg dcbm-gen-1 $BIN/dcbm-gen -q -s 5 --count 1 --nodes 120 -o "$T/one.gs"
vg gcn-adapt $BIN/gcn-adapt -q -j 2 -s 4 --runs 2 --epochs 5 --label cluster \
	--train-per-class 3 --val 20 --test 40 --model "$T/model.gs" -o "$T/pred.gs" "$T/one.gs"
awk 'BEGIN { srand(7); for (i = 0; i < 60; i++) for (j = i + 1; j < 60; j++)
	if (rand() < 0.15) print i, j, (i + j) % 2 }' >"$T/el.txt"
vg graph-import $BIN/graph-import -f edgelist -o "$T/ds.gs" "$T/el.txt"
vg gcn-adapt-link $BIN/gcn-adapt -q -j 2 -s 4 --runs 1 --epochs 3 --task link \
	--no-pretrain --head-width 16 -o "$T/lpred.gs" "$T/ds.gs"
vg evalf1 $BIN/evalf1 -o "$T/f1.txt" "$T/pred.gs"
# the embeddings of a graph, to a stream and to a .npy file; a training
# run whose feature stage is a command (common/featcmd.c)
vg gcn-embed $BIN/gcn-embed -q -j 2 --model "$T/model.gs" -o "$T/emb.gs" "$T/one.gs"
vg gcn-embed-npy $BIN/gcn-embed -q -j 2 --model "$T/model.gs" --embedding rank \
	--npy "$T/emb.npy" "$T/lab.gs"
# the linear probe of those embeddings, and the paired comparison
vg linprobe $BIN/linprobe -q -j 2 --label cluster --runs 2 --cv-folds 2 --C-grid 0.1..10 \
	-o "$T/probe.gs" "$T/emb.gs"
vg evalf1-baseline $BIN/evalf1 --baseline "$T/probe.gs" -o "$T/paired.txt" "$T/probe.gs"
vg gcn-train-stage $BIN/gcn-train -q -j 2 -s 3 --hidden 8 --epochs 1 --batch 4 \
	--validation 4 --features "$BIN/nodefeat -q" -o "$T/model2.gs" "$T/lab.gs"
vg gcn-export $BIN/gcn-export -o "$T/model.safetensors" "$T/model.gs"
# the structural-role generator, with noise, and the refex feature set
vg motif-gen $BIN/motif-gen -q -s 6 --preset cycle-varied --count 2 --add-edges 0.1 \
	--remove-edges 0.1 -o "$T/motif.gs"
vg nodefeat-refex $BIN/nodefeat -q -j 2 --set refex -o "$T/refex.gs" "$T/motif.gs"
echo "valgrind.sh: $n programs, $fails failed"
[ "$fails" -eq 0 ]
