#!/bin/sh
# shellcheck disable=SC2086  # option lists are split on purpose
# transfer.sh - one cell of the transfer benchmark (transfer.mk), or its
# table: does a pre-trained encoder hold more of a task than the same
# network with random values, than its input features, and than a
# hand-made structural set, on the same splits?
#   sh transfer.sh data SET OUT [FILE]      the dataset's stream (FILE: a
#                                           set of the user's, copied)
#   sh transfer.sh vec SET ARM OUT [RUN]    the vectors an arm probes
#   sh transfer.sh probe SET ARM PROTO OUT  linprobe's predictions
#   sh transfer.sh tune SET ARM PROTO OUT   gcn-adapt's predictions
#   sh transfer.sh table DIR TITLE MODEL CELL...  the table on stdout
#   sh transfer.sh sets                     the benchmark's own set names
#   sh transfer.sh check VAR KIND FILE      a set of the user's: nothing
#                                           when FILE holds KIND classes,
#                                           else one line saying why not
# SET: node sets cora pubmed roles-ba roles-tree, graph sets imdb-binary
#   imdb-multi mutag enzymes ptc-mr, or a set of the user's (its name the
#   basename of its file, which data copies).
# ARM: pre (the model under test, TR_MODEL), rand (the same network with
#   random values, drawn anew for every run: RUN), feat (its input
#   features as it sees them: its feature stage by nodefeat, e.g. the
#   paper's four min-max per graph, or --scale both), featlog
#   (the same four raw, log1p of the counts), refex (nodefeat --set refex:
#   the four and their neighbourhood means and maxima, twice: 20 columns).
# PROTO: few (node sets: 20 labelled nodes a class, the rest tested), many
#   (node sets: 80% of each class trained, 20% tested), folds (graph sets:
#   gcn-adapt's 10 stratified folds); and for tune, paper (gcn-adapt's own
#   split: Planetoid's 20 a class, 500 and 1000 on Cora).  A cell of folds
#   is a graph set's; any other a node set's.
# Environment (set by transfer.mk): BIN, DATA, TR_MODEL, TR_RUNS, SEED,
# THREADS, TR_EMBED_OPTS (extra gcn-embed options of the pre and rand
# arms, e.g. --allow-features-command for a model trained on a feature
# command; the command finds the programs of BIN first on PATH),
# TR_TUNE_OPTS (extra gcn-adapt options).
set -eu
PATH="${BIN:+$BIN:}$PATH"
node_sets="cora pubmed roles-ba roles-tree"
graph_sets="imdb-binary imdb-multi mutag enzymes ptc-mr"
# The classes a stream holds, read from its records' headers (the binary
# form keeps them as text, gnnstream(5)): node (a 'label' tensor, a class
# a node, as graph-attach writes them), graph ('label' records, a class a
# graph: graph-attach --graphs), both, or none.
classes() {
	k=$(gzip -dcf "$1" | LC_ALL=C grep -ao -e 'tensor id=[0-9]* name=label ' \
		-e 'label id=[0-9]* name=label ' | sed 's/ .*//' | sort -u | tr '\n' ' ')
	case $k in
	'tensor ') echo node ;;
	'label ') echo graph ;;
	'label tensor ') echo both ;;
	*) echo none ;;
	esac
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
# the vectors' tensor and, for a graph set (folds), how linprobe pools them
probe_opts() {	# probe_opts ARM PROTO
	t=embedding
	case $1 in feat | featlog | refex) t=features ;; esac
	if [ "$2" = folds ]; then
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
# gcn-adapt's split of a protocol: the probe's few-label split (the same
# items as linprobe --train-per-class 20 with the same seed, validation
# drawn from the training nodes), the 10 folds, or its own (paper)
tune_opts() {	# tune_opts PROTO
	case $1 in
	few) echo "--split per-class --train-per-class 20" ;;
	folds) echo "--task graph" ;;
	paper) ;;
	*) echo "transfer.sh: unknown fine-tuning protocol '$1'" >&2; exit 2 ;;
	esac
}
# The C of the logistic regression is chosen per run by 3-fold CV over
# 0.001 .. 10 (linprobe(1)): fewer fits than its default 5 folds over
# 1e-4 .. 100, which on 1536 columns and thousands of items would take
# hours; the same for every arm.
CV="--cv-folds 3 --C-grid 0.001..10"

case ${1:-} in
sets)
	echo $node_sets $graph_sets ;;
check)
	# check VAR KIND FILE: a set of the user's, named in VAR (TR_NODE or
	# TR_GRAPH), must hold classes of KIND; transfer.mk stops on a line
	[ $# -eq 4 ] || { echo "usage: sh transfer.sh check VAR KIND FILE" >&2; exit 2; }
	v=$2 want=$3 f=$4
	n=$(basename "$f" .gs)
	if [ ! -r "$f" ]; then
		echo "$v: $f: no such file"
		exit 0
	fi
	case $n in
	*--* | *[!A-Za-z0-9._-]* | '')
		echo "$v: $f: the cells are named after the file, and '$n' is not a name" \
			"of letters, digits, '.', '_' and single '-'"
		exit 0 ;;
	esac
	case " $node_sets $graph_sets " in
	*" $n "*) echo "$v: $f: its cells would be named $n, a set of the benchmark's; rename the file"
		exit 0 ;;
	esac
	have=$(classes "$f")
	case $want.$have in
	node.node | node.both | graph.graph | graph.both) ;;
	node.graph) echo "$v: $f: graph classes (label records), no node classes (a 'label'" \
		"tensor): name it in TR_GRAPH" ;;
	graph.node) echo "$v: $f: node classes (a 'label' tensor), no graph classes (label" \
		"records): name it in TR_NODE" ;;
	*) echo "$v: $f: no classes: neither a node 'label' tensor nor graph 'label' records" \
		"(graph-attach attaches them)" ;;
	esac ;;
data)
	[ $# -eq 3 ] || [ $# -eq 4 ] || { echo "usage: sh transfer.sh data SET OUT [FILE]" >&2; exit 2; }
	if [ $# -eq 4 ]; then
		cp "$4" "$3.tmp"
	else
		case $2 in
		pubmed) cp "$DATA/pubmed-structure.gs" "$3.tmp" ;;
		roles-ba) "$BIN/motif-gen" -q --preset ba-shapes -s 1 -o "$3.tmp" ;;
		roles-tree) "$BIN/motif-gen" -q --preset tree-grid -s 1 -o "$3.tmp" ;;
		cora | imdb-binary | imdb-multi | mutag | enzymes | ptc-mr)
			cp "$DATA/$2.gs" "$3.tmp" ;;
		*) echo "transfer.sh: unknown set '$2' (a set of your own is named by its file)" >&2
			exit 2 ;;
		esac
	fi
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
	o="-q -t -j $THREADS -s $SEED $CV $(probe_opts "$arm" "$proto") $(proto_opts "$proto")"
	if [ "$arm" = rand ]; then
		# a new draw of the random network for every run r (the 10
		# folds are drawn once for the set), run r tested on draw r;
		# each draw read from the standard input, so that a set whose
		# graphs name no dataset is named alike in every run
		n=$TR_RUNS
		[ "$proto" != folds ] || n=10
		r=0
		: >"$out.tmp"
		while [ "$r" -lt "$n" ]; do
			"$BIN/linprobe" $o --runs 1 --first-run "$r" \
				<"$d/vec/$set_--rand-$r.gs" >>"$out.tmp"
			r=$((r + 1))
		done
	else
		runs=
		[ "$proto" = folds ] || runs="--runs $TR_RUNS"
		"$BIN/linprobe" $o $runs -o "$out.tmp" "$d/vec/$set_--$arm.gs"
	fi
	mv "$out.tmp" "$out" ;;
tune)
	[ $# -eq 5 ] || { echo "usage: sh transfer.sh tune SET ARM PROTO OUT" >&2; exit 2; }
	set_=$2 arm=$3 proto=$4 out=$5
	in=$(dirname "$out")/../data/$set_.gs
	# a graph set's 10 folds, each once, as the probe has them
	n=$TR_RUNS
	[ "$proto" != folds ] || n=10
	o="-q -j $THREADS -s $SEED --model $TR_MODEL --runs $n $(tune_opts "$proto")"
	[ "$arm" = rand ] && o="$o --no-pretrain"
	"$BIN/gcn-adapt" $o ${TR_TUNE_OPTS:-} -t -o "$out.tmp" "$in"
	mv "$out.tmp" "$out" ;;
table)
	[ $# -ge 4 ] || { echo "usage: sh transfer.sh table DIR TITLE MODEL CELL..." >&2; exit 2; }
	shift
	exec sh "$(dirname "$0")/transfer-table.sh" "$@" ;;
*)
	echo "usage: sh transfer.sh sets|check|data|vec|probe|tune|table ..." >&2
	exit 2 ;;
esac
