#!/bin/sh
# shellcheck disable=SC2086  # option lists are split on purpose
# transfer.sh - one cell of the transfer benchmark (transfer.mk), or its
# table: does a pre-trained encoder hold more of a task than the same
# network with random values, than its input features, and than a
# hand-made structural set, on the same splits?
#   sh transfer.sh data SET OUT             the dataset's stream
#   sh transfer.sh vec SET ARM OUT [RUN]    the vectors an arm probes
#   sh transfer.sh probe SET ARM PROTO OUT  linprobe's predictions
#   sh transfer.sh tune SET ARM OUT         gcn-adapt's predictions
#   sh transfer.sh table DIR TITLE MODEL    results/transfer.md on stdout
# SET: node sets cora pubmed roles-ba roles-tree, graph sets imdb-binary
#   imdb-multi mutag enzymes ptc-mr.
# ARM: pre (the model under test, TR_MODEL), rand (the same network with
#   random values, drawn anew for every run: RUN), feat (its input
#   features as it sees them: its feature stage by nodefeat, e.g. the
#   paper's four min-max per graph, or --scale both), featlog
#   (the same four raw, log1p of the counts), refex (nodefeat --set refex:
#   the four and their neighbourhood means and maxima, twice: 20 columns).
# PROTO: few (node sets: 20 labelled nodes a class, the rest tested), many
#   (node sets: 80% of each class trained, 20% tested), folds (graph sets:
#   gcn-adapt's 10 stratified folds).
# Environment (set by transfer.mk): BIN, DATA, TR_MODEL, TR_RUNS, SEED,
# THREADS, TR_EMBED_OPTS (extra gcn-embed options of the pre and rand
# arms, e.g. --allow-features-command for a model trained on a feature
# command; the command finds the programs of BIN first on PATH),
# TR_TUNE_OPTS (extra gcn-adapt options).
set -eu
PATH="$BIN:$PATH"
node_sets="cora pubmed roles-ba roles-tree"
graph_sets="imdb-binary imdb-multi mutag enzymes ptc-mr"
kind() {	# kind SET: node or graph
	case " $node_sets " in *" $1 "*) echo node; return ;; esac
	case " $graph_sets " in *" $1 "*) echo graph; return ;; esac
	echo "transfer.sh: unknown set '$1'" >&2
	exit 2
}
# nodefeat's options for the model's feature stage (the feat arm): read
# from its config, which a gzip or plain stream holds as text
feat_opts() {
	st=$(gzip -dcf "$TR_MODEL" | grep -ao -m 1 'features\.stage: "[a-z]*"' | tr -d '"') || st=
	case ${st#features.stage: } in
	'' | paper) ;;
	both) echo "--scale both" ;;
	rwse) echo "--set rwse" ;;
	*) echo "transfer.sh: the feat arm: no nodefeat options for the feature stage of $TR_MODEL" \
		"(${st#features.stage: })" >&2; exit 2 ;;
	esac
}
# the vectors' tensor and, for a graph set, how linprobe pools them
probe_opts() {	# probe_opts SET ARM
	t=embedding
	case $2 in feat | featlog | refex) t=features ;; esac
	if [ "$(kind "$1")" = graph ]; then
		echo "--tensor $t --task graph --pool meanmax"
	else
		echo "--tensor $t"
	fi
}
proto_opts() {	# proto_opts PROTO
	case $1 in
	few) echo "--train-per-class 20" ;;
	many) echo "--test-fraction 0.2" ;;
	folds) echo "--folds 10" ;;
	*) echo "transfer.sh: unknown protocol '$1'" >&2; exit 2 ;;
	esac
}
# The C of the logistic regression is chosen per run by 3-fold CV over
# 0.001 .. 10 (linprobe(1)): fewer fits than its default 5 folds over
# 1e-4 .. 100, which on 1536 columns and thousands of items would take
# hours; the same for every arm.
CV="--cv-folds 3 --C-grid 0.001..10"

case ${1:-} in
data)
	[ $# -eq 3 ] || { echo "usage: sh transfer.sh data SET OUT" >&2; exit 2; }
	case $2 in
	pubmed) cp "$DATA/pubmed-structure.gs" "$3.tmp" ;;
	roles-ba) "$BIN/motif-gen" -q --preset ba-shapes -s 1 -o "$3.tmp" ;;
	roles-tree) "$BIN/motif-gen" -q --preset tree-grid -s 1 -o "$3.tmp" ;;
	*) kind "$2" >/dev/null && cp "$DATA/$2.gs" "$3.tmp" ;;
	esac
	mv "$3.tmp" "$3" ;;
vec)
	[ $# -ge 4 ] || { echo "usage: sh transfer.sh vec SET ARM OUT [RUN]" >&2; exit 2; }
	set_=$2 arm=$3 out=$4 run=${5:-0}
	in=$(dirname "$out")/../data/$set_.gs
	case $arm in
	pre) "$BIN/gcn-embed" -q -j "$THREADS" --model "$TR_MODEL" ${TR_EMBED_OPTS:-} \
		-o "$out" "$in" ;;
	rand) "$BIN/gcn-embed" -q -j "$THREADS" --model "$TR_MODEL" ${TR_EMBED_OPTS:-} \
		--no-pretrain -s "$run" -o "$out" "$in" ;;
	feat) o=$(feat_opts)
		"$BIN/nodefeat" -q -j "$THREADS" $o -o "$out" "$in" ;;
	featlog) "$BIN/nodefeat" -q -j "$THREADS" --scale log -o "$out" "$in" ;;
	refex) "$BIN/nodefeat" -q -j "$THREADS" --set refex -o "$out" "$in" ;;
	*) echo "transfer.sh: unknown arm '$arm'" >&2; exit 2 ;;
	esac ;;
probe)
	[ $# -eq 5 ] || { echo "usage: sh transfer.sh probe SET ARM PROTO OUT" >&2; exit 2; }
	set_=$2 arm=$3 proto=$4 out=$5
	d=$(dirname "$out")/..
	o="-q -t -j $THREADS -s $SEED $CV $(probe_opts "$set_" "$arm") $(proto_opts "$proto")"
	if [ "$arm" = rand ]; then
		# a new draw of the random network for every run r (the 10
		# folds are drawn once for the set), run r tested on draw r
		n=$TR_RUNS
		[ "$proto" != folds ] || n=10
		r=0
		: >"$out.tmp"
		while [ "$r" -lt "$n" ]; do
			"$BIN/linprobe" $o --runs 1 --first-run "$r" \
				"$d/vec/$set_--rand-$r.gs" >>"$out.tmp"
			r=$((r + 1))
		done
	else
		runs=
		[ "$proto" = folds ] || runs="--runs $TR_RUNS"
		"$BIN/linprobe" $o $runs -o "$out.tmp" "$d/vec/$set_--$arm.gs"
	fi
	mv "$out.tmp" "$out" ;;
tune)
	[ $# -eq 4 ] || { echo "usage: sh transfer.sh tune SET ARM OUT" >&2; exit 2; }
	set_=$2 arm=$3 out=$4
	in=$(dirname "$out")/../data/$set_.gs
	o="-q -j $THREADS -s $SEED --model $TR_MODEL --runs $TR_RUNS ${TR_TUNE_OPTS:-}"
	[ "$(kind "$set_")" = graph ] && o="$o --task graph"
	[ "$arm" = rand ] && o="$o --no-pretrain"
	"$BIN/gcn-adapt" $o -t -o "$out.tmp" "$in"
	mv "$out.tmp" "$out" ;;
table)
	[ $# -eq 4 ] || { echo "usage: sh transfer.sh table DIR TITLE MODEL" >&2; exit 2; }
	exec sh "$(dirname "$0")/transfer-table.sh" "$2" "$3" "$4" ;;
*)
	echo "usage: sh transfer.sh data|vec|probe|tune|table ..." >&2
	exit 2 ;;
esac
