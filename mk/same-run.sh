#!/bin/sh
# same-run.sh - the commands whose outputs must not change in a refactor
# (docs/refactor-plan.md, V2), run by mk/same.sh once with the old
# programs and once with the new, from the same directory.
#   IN=DIR sh mk/same-run.sh OUT
# The programs are the ones on PATH; IN holds the inputs (mk/same.sh copies
# this checkout's man/, tests/badinput/, tests/cli/data/, data/*.gs,
# pipelines/*.yaml there).  Each case runs in a directory OUT/NAME of its
# own, by sh -e, with standard input from /dev/null; beside the files it
# writes, .stdout, .stderr and .status keep the rest.  Every case keeps
# its outputs whether it fails or not: a message or a status is behaviour
# too, and the script itself fails only when IN is missing.
#
# Small on purpose (mk/same.sh runs it twice; about six minutes on two
# cores loaded ten times over): fixed seeds, -j 1 where a model trains, -q,
# a fixed --precision; graphs of tens of nodes, a few epochs.  The man
# pages' examples run as they are written, as on a CPU without bf16
# products (--precision auto then chooses fp32; the ones that train
# without -j 1 run with as many threads as cores, the same for both
# builds).  Left
# out: gcn-train(1)'s examples that stop a run by a signal and that time
# steps (--bench-steps), whose output is a time, and the three slowest
# examples (see below).
set -u
[ $# -eq 1 ] && [ -n "${IN:-}" ] && [ -d "$IN/man" ] ||
	{ echo "usage: IN=dir sh same-run.sh out" >&2; exit 2; }
mkdir -p "$1"
O=$(cd "$1" && pwd)
P=$O/pre
D=$IN/tests/cli/data
export O P D IN

# one NAME SCRIPT: SCRIPT run by sh -e in OUT/NAME; its seconds on stderr
# (mk/same.sh's log), not among the outputs
one() {
	mkdir -p "$O/$1"
	t0=$(date +%s)
	(cd "$O/$1" && timeout 600 sh -ec "$2" </dev/null >.stdout 2>.stderr
	echo $? >.status)
	echo "$1: status $(cat "$O/$1/.status"), $(($(date +%s) - t0)) s" >&2
}

# ---- shared inputs (a case of their own: pre) ----
one pre '
dcbm-gen -q -s 1 --count 16 --nodes 40..80 -o g.gs
centrality -q -s 1 -o lab.gs g.gs
centrality -q -s 1 -t -o lab.txt g.gs
dcbm-gen -q -s 3 --count 1 --nodes 120 --clusters 3 -o node.gs
'
# the 3-step pre-training of pipelines/pretrain.yaml
PT="-q -j 1 -s 1 --config $IN/pipelines/pretrain.yaml --steps 3 --validation 4 --batch 4"
one pretrain-fp32 "gcn-train $PT --precision fp32 --log log.tsv -o model.gs $P/lab.gs"
one pretrain-fp32-text "gcn-train $PT --precision fp32 -t $P/lab.gs"
if grep -q avx512_bf16 /proc/cpuinfo 2>/dev/null; then
	one pretrain-bf16 "gcn-train $PT --precision bf16 -o model.gs $P/lab.gs"
fi
one pretrain-graph "gcn-train $PT --precision fp32 --reduce graph -o model.gs $P/lab.gs"
one pretrain-rwse "gcn-train $PT --precision fp32 --features rwse -o model.gs $P/lab.gs"
one pretrain-command "gcn-train $PT --precision fp32 --features 'nodefeat -q --set rwse --rw-steps 8' -o model.gs $P/lab.gs"
one pretrain-resume "
gcn-train $PT --precision fp32 --steps 2 --checkpoint ck.gs -o first.gs $P/lab.gs
gcn-train $PT --precision fp32 --resume ck.gs -o model.gs $P/lab.gs"
# a narrow model for the downstream programs (d = 16, two epochs)
one model "gcn-train -q -j 1 -s 2 --hidden 16 --epochs 2 --batch 4 --validation 4 --precision fp32 -o model.gs $P/lab.gs
gcn-train -q -j 1 -s 2 --hidden 16 --epochs 2 --batch 4 --validation 4 --precision fp32 --features rwse -o rwse.gs $P/lab.gs"
M=$O/model/model.gs

# ---- gcn-adapt: node (Cora, --attributes), graph (IMDB-B), link ----
AD="-q -j 1 -s 1 --runs 2 --epochs 5 --precision fp32 --model $M"
one adapt-cora "gcn-adapt $AD --val 100 --test 200 --save-model adapted.gs -o pred.gs $IN/data/cora.gs
gcn-adapt --predict -q -j 1 --precision fp32 --model adapted.gs -t $IN/data/cora.gs >labelled.txt
evalf1 pred.gs"
one adapt-cora-attr "gcn-adapt $AD --attributes --val 100 --test 200 -t -o pred.txt $IN/data/cora.gs
evalf1 --format tsv --per-class pred.txt"
one adapt-cora-nopre "gcn-adapt $AD --no-pretrain --val 100 --test 200 -o pred.gs $IN/data/cora.gs
evalf1 --baseline pred.gs $O/adapt-cora/pred.gs"
one adapt-imdb "gcn-adapt $AD --task graph --save-model adapted.gs -o pred.gs $IN/data/imdb-binary.gs
gcn-adapt --predict -q -j 1 --precision fp32 --model adapted.gs -t $IN/data/imdb-binary.gs >labelled.txt
evalf1 --format yaml pred.gs"
# (an edge's class: deg u + deg v > 20, as tests/cli/gcn-adapt.test.sh)
one adapt-link "dcbm-gen -q -s 5 --count 1 --nodes 300 --gamma 2.5 -t |
	awk '/^@/ { on = /^@graph/; next }
	     on && NF == 2 { u[++n] = \$1; v[n] = \$2; d[\$1]++; d[\$2]++ }
	     END { for (i = 1; i <= n; i++) print u[i], v[i], (d[u[i]] + d[v[i]] > 20) }' >l.txt
graph-import -q -f edgelist -o l.gs l.txt
gcn-adapt $AD --task link --save-model adapted.gs -o pred.gs l.gs
gcn-adapt --predict -q -j 1 --precision fp32 --model adapted.gs -t l.gs >labelled.txt
evalf1 --confusion pred.gs"
one adapt-node-freeze "gcn-adapt $AD --label cluster --freeze 1 --train-per-class 5 --val 20 --test 40 -t $P/node.gs"
if grep -q avx512_bf16 /proc/cpuinfo 2>/dev/null; then
	one adapt-bf16 "gcn-adapt -q -j 1 -s 1 --runs 2 --epochs 5 --precision bf16 --model $M \
		--label cluster --train-per-class 5 --val 20 --test 40 -t $P/node.gs"
fi

# ---- gcn-embed, gcn-export, linprobe, evalf1 ----
EM="-q -j 1 --precision fp32 --model $M"
one embed "gcn-embed $EM -o emb.gs $P/node.gs
gcn-embed $EM -t $P/g.gs >emb.txt
gcn-embed $EM --tsv $P/node.gs >emb.tsv
gcn-embed $EM --npy emb.npy $P/g.gs
gcn-embed $EM --pool mean,max --tsv $P/g.gs >pool.tsv
gcn-embed $EM --pool sum --npy pool.npy $P/g.gs
for k in blocks block1 block3 rec rank cluster; do gcn-embed $EM --embedding \$k --tsv $P/node.gs >\$k.tsv; done
gcn-embed -q -j 1 --precision fp32 --model $O/model/rwse.gs --tsv $P/node.gs >rwse.tsv
gcn-embed -q -j 1 --precision fp32 --no-pretrain --model $M -s 7 --tsv $P/node.gs >nopre.tsv"
if grep -q avx512_bf16 /proc/cpuinfo 2>/dev/null; then
	one embed-bf16 "gcn-embed -q -j 1 --precision bf16 --model $M --tsv $P/node.gs"
fi
one export "gcn-export -o model.safetensors $M
gcn-export -o adapted.safetensors $O/adapt-cora/adapted.gs
gcn-export --name gcn-pretrain-checkpoint -o ck.safetensors $O/pretrain-resume/ck.gs"
one linprobe "nodefeat -q $P/node.gs >f.gs
linprobe -q -j 1 --tensor features --label cluster --runs 3 -o feat.gs f.gs
gcn-embed $EM f.gs | linprobe -q -j 1 --label cluster --runs 3 -o emb.gs
linprobe -q -j 1 --tensor features --label cluster --folds 3 --C 1 -t f.gs >folds.txt
gcn-embed $EM --pool mean $IN/data/mutag.gs | linprobe -q -j 1 --task graph --tensor graph_embedding --pool none --runs 2 -o graph.gs
evalf1 --baseline feat.gs emb.gs
evalf1 --format tsv graph.gs"

# ---- the filters: graph-import, nodefeat, centrality, mask-edges, generators ----
one import "graph-import -f linqs -t $D/import-tiny.content $D/import-tiny.cites >tiny.txt
graph-import -q -f linqs --attributes $D/import-attr.txt -t $D/import-labels.txt $D/import-tiny.cites >attr.txt
graph-import -f linqs -t $D/import-pubmed.NODE.paper.tab $D/import-pubmed.DIRECTED.cites.tab >pubmed.txt
graph-import -f tu -t $D/import-tu >tu.txt
graph-import -f movielens -t $D/import-ml100k >ml100k.txt
graph-import -f movielens -t $D/import-ml1m >ml1m.txt
graph-import -f edgelist -t $D/mask-small.ok.txt >el.txt
graph-import -f edgelist --nodes 40 -o el.gs $D/mask-small.ok.txt"
for s in 1 2; do
	one gen-$s "dcbm-gen -s $s --count 3 --nodes 30..200 -t >dcbm.txt
dcbm-gen -s $s --count 2 --nodes 400 --mean-degree 60 -o dense.gs
dcbm-gen -s $s --count 2 --nodes 50 --clusters 4 --p-div-q 8 -k 1 --gamma 2.5 -l 0 >opts.gs
motif-gen --preset ba-shapes -s $s -t >ba.txt
motif-gen --preset tree-cycles -s $s -o tc.gs
motif-gen --base cycle --base-nodes 60 --motif star5:6 --motif grid3:6 --attach spread --remove-edges 0.05 --add-edges 0.05 -s $s -t >mix.txt"
	one filters-$s "nodefeat -q -s $s -t $P/g.gs >paper.txt
nodefeat -q -s $s --set rwse -t $P/g.gs >rwse.txt
nodefeat -q -s $s --set rwse --exact-max 0 --rw-error 0.1 -t $P/g.gs >rwse-est.txt
nodefeat -q -s $s --set refex --tsv $P/g.gs >refex.tsv
nodefeat -q -s $s --scale log --tsv $P/g.gs >log.tsv
centrality -s $s -t $P/g.gs >c.txt
centrality -s $s --exact-max 10 --error 0.2 --tsv $P/g.gs >c-est.tsv
mask-edges -s $s -t $P/lab.gs >m.txt
mask-edges -s $s -f 0.4 -p all -n 8 -t $P/g.gs >m-all.txt"
done

one pipeline "dcbm-gen --count 16 -s 1 --nodes 100..300 | centrality | mask-edges -s 2 | nodefeat >pre.gs
gcn-train -q -j 1 -s 1 --hidden 8 --epochs 1 --batch 4 --validation 4 --precision fp32 -t pre.gs"

# ---- every EXAMPLES block of every man page, each in a directory of its own ----
for page in "$IN"/man/man1/*.1 "$IN"/man/man5/*.5 "$IN"/man/man7/*.7; do
	name=$(basename "$page")
	awk -v dir="$O" -v name="$name" '
		/^\.Sh EXAMPLES/ { ex = 1; next }
		/^\.Sh / { ex = 0 }
		ex && /^\.Bd -literal/ { k++; f = sprintf("%s/man-%s.%d.sh", dir, name, k); on = 1; next }
		on && /^\.Ed/ { on = 0; close(f); next }
		on { gsub(/\\e/, "\\"); print > f }
	' "$page"
	for ex in "$O/man-$name".*.sh; do
		[ -e "$ex" ] || continue
		c=$(basename "$ex" .sh)
		# timed: a run stopped by a signal, --bench-steps' timings (found by
		# what they run: the examples' numbers move as pages grow)
		if grep -q -e '--bench-steps' -e 'kill -' "$ex"; then
			rm -f "$ex"
			continue
		fi
		case $c in
		# long: dcbm-gen | centrality | mask-edges | nodefeat on 16 and 64
		# graphs of up to 2,000 nodes (a minute or two each on a loaded
		# machine); the pipeline case runs them on smaller graphs
		man-centrality.1.2 | man-nodefeat.1.2 | man-mask-edges.1.2) rm -f "$ex"; continue ;;
		esac
		# as on a CPU without bf16 products: the examples that train at
		# --precision auto then always get fp32 (auto chooses by a timing,
		# and under load the same build chose either)
		one "$c" "export ONEDNN_MAX_CPU_ISA=AVX2; $(cat "$ex")"
		rm -f "$ex"
	done
done

# ---- every row of the bad-input table: stdout, stderr, status, what -o left ----
one badinput-inputs "TOP=$IN sh $IN/tests/badinput/make-inputs.sh ."
B=$O/badinput-inputs
mkdir -p "$O/badinput"
while IFS='	' read -r name cmd input code re <&3; do
	case $name in '' | '#'*) continue ;; esac
	stdin=/dev/null
	case $cmd in *@IN@*) ;; *) [ "$input" = - ] || stdin=$B/$input ;; esac
	cmd=$(printf '%s\n' "$cmd" | sed -e "s|@IN@|$B/$input|g" -e "s|@OUT@|out|g" -e "s|@B@|$B|g")
	mkdir -p "$O/badinput/$name"
	(cd "$O/badinput/$name" && timeout 10 sh -c "$cmd" <"$stdin" >.stdout 2>.stderr
	echo $? >.status)
done 3<"$IN/tests/badinput/cases.tsv"

# ---- what is a time, a date or a random name, not behaviour: the rates
# and seconds the man pages' examples print (they run without -q or
# --precision, and auto measures), the seconds column of every --log
# file, the name mkstemp gave a failed feature command's standard error,
# and the date in the gzip headers of make-inputs.sh's .gz files (made by
# gzip; zeroed after the rows have read them)
find "$O" -name .stderr -type f | while IFS= read -r f; do
	sed -e 's|at [0-9.]* GFLOP/s|at N GFLOP/s|g' -e 's|(step \([0-9]*\), [0-9.]* s)|(step \1, T s)|' \
		-e 's|gnnpipe-features-stderr-[A-Za-z0-9]\{6\}|gnnpipe-features-stderr-XXXXXX|g' \
		"$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
find "$O" -name '*.tsv' -type f | while IFS= read -r f; do
	awk -F '\t' 'BEGIN { OFS = "\t" } NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") c = i }
		NR > 1 && c { $c = "T" } { print }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
find "$O" -name '*.gz' -type f | while IFS= read -r f; do
	dd if=/dev/zero of="$f" bs=1 seek=4 count=4 conv=notrunc 2>/dev/null
done
