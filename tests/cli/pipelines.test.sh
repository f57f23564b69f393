# pipelines.test.sh - the quick variant of the paper's pipelines (QUICK=1):
# a table, the figures, caching, provenance.  Sourced by run.sh with lib.sh.
T="$TMPD/pipe"
mkdir -p "$T"
# the quick variant's adaptation options (pipelines/Makefile) in fp32: a
# cell's runs are compared with a rerun's below, and auto's choice of
# precision is a timing, which load can tip
P="make -s -C $TOP/pipelines QUICK=1 THREADS=2 BIN=$BIN BUILD=$T/build RESULTS=$T/results"
P="$P ADAPT_OPTS='--epochs 40 --patience 10 --head-width 16 --precision fp32'"

expect 0 "$P TIMES=1 table1 fig2 fig3 fig5 >$T/make.out 2>$T/make.err"
R="$T/results"
# TIMES=1: one line per recipe, with its status and seconds; `times` sums them
check "awk -F '\t' 'NF == 6 && \$2 == 0 && \$3 >= 0 && \$4 >= 0 { n++ } /gcn-train/ { g++ }
	END { exit !(n == NR && n > 10 && g >= 1) }' $T/build/times.tsv" "TIMES=1: a line per recipe"
expect 0 "$P times >$T/times.md"
# and adapt.sh logs every adaptation run (RUN_LOG), summed by times
check "awk -F '\t' 'NF == 6 && \$5 > 0 && \$6 > 0 { n++ } END { exit !(n == NR && n >= 4) }' $T/build/runs.tsv" \
	"TIMES=1: a line per adaptation run, with wall and CPU seconds"
check "grep -q '^| cora | [1-9][0-9]* | [1-9][0-9]* | [0-9]* | [0-9]* |\$' $T/times.md" "times: the adaptation runs per dataset"
check "grep -q '^| gcn-train model-all | 1 | ' $T/times.md && grep -q '^| gcn-adapt cora | ' $T/times.md &&
	grep -q '^Elapsed while some stage ran: [0-9]* s' $T/times.md" "times: a table per kind of stage and the elapsed time"
check "grep -q '^| model-all | [1-9][0-9]* | 1 | [0-9]* |\$' $T/times.md" "times: the pre-training from its log"
# a pre-training resumed once: its two parts' times are added up
mkdir -p $T/tres
printf '2026-01-01T00:00:00\t0\t5.0\t4.0\t0.5\tsh adapt.sh cora base x\n' >$T/tres/times.tsv
printf 'epoch\tstep\tseconds\n1\t2\t100\n2\t4\t250\n2\t4\t120\n3\t6\t260\n' >$T/tres/train-rec.tsv
expect 0 "sh $TOP/pipelines/times.sh $T/tres/times.tsv >$T/tres/out"
check "grep -q '^| model-rec | 3 | 2 | 510 |\$' $T/tres/out" "times: a resumed pre-training adds its parts (250 + 260 s)"
check "grep -q '^Elapsed while some stage ran: 5 s' $T/tres/out && ! grep -q '^With the adaptation runs' $T/tres/out" \
	"times: the elapsed time of the recipes alone when there is no run log"
# a cell's run 0 ended an hour before its recipe (a stopped session), run 1
# overlaps the recipe: elapsed 100 + 5 + 1 s
printf '2025-12-31T23:00:00\tcora\tbase\t0\t100.0\t90.0\n2026-01-01T00:00:06\tcora\tbase\t1\t2.0\t2.0\n' >$T/tres/runs.tsv
expect 0 "sh $TOP/pipelines/times.sh $T/tres/times.tsv >$T/tres/out2"
check "grep -q '^Elapsed while some stage ran: 5 s' $T/tres/out2 &&
	grep -q '^With the adaptation runs .*: 106 s (0.0 h) elapsed' $T/tres/out2" \
	"times: the elapsed time adds the runs of a cell finished in a later session"
check "grep -q '^| Baseline (no pre-train) | [0-9.]* ± [0-9.]* \[2 runs\] (61.9 ± 1.7) |' $R/table1.md" \
	"table1: our Cora baseline beside the paper's"
check "[ \$(grep -c '^| Pre-train (all tasks) | [0-9.]* ± [0-9.]* \[2 runs\] (67.5 ± 1.1) | not run (66.0 ± 1.4) |.* [0-9.]* ± [0-9.]* \[2 runs\] (73.2 ± 0.8) |\$' $R/table1.md) -eq 1 ]" \
	"table1: pre-trained Cora and IMDB-B measured, Pubmed marked not run"
check "grep -q 'Baseline (attr. only) | [0-9.]* ±' $R/table1.md" "table1: the attributes rows"
# Figure 3's "E" pre-trained and "none" random cells are Table 1's cells,
# copied (the same runs); a newer table cell puts the figure out of date
check "cmp -s $T/build/pred/cora--fz0-pre.txt $T/build/pred/cora--pre.txt &&
	cmp -s $T/build/pred/cora--fzm1-rand.txt $T/build/pred/cora--base.txt &&
	grep -q 'copied, not' $R/fig3.md" "fig3: two cells are copies of Table 1's, and the caption says so"
touch "$T/build/pred/cora--pre.txt"
check "! $P -q $R/fig3.md" "a newer Table 1 cell puts fig3 out of date"
expect 0 "$P table1 fig3 >/dev/null 2>$T/recopy.err"
check "cmp -s $T/build/pred/cora--fz0-pre.txt $T/build/pred/cora--pre.txt && ! grep -q gcn-adapt $T/recopy.err" \
	"remade by a copy, not a run"
# pre-training until the stopping rule ends it (here at most 2 epochs),
# beside Table 1's model and cells
expect 0 "$P LONG_EPOCHS=2 converged >$T/conv.out 2>$T/conv.err"
check "grep -q '^- until converged: 2 epochs (10 steps), .*products in \(bf16\|fp32\)\$' $R/converged.md &&
	grep -q '^| 2 | 0\.[0-9]* | 0\.[0-9]* |\$' $R/converged.md &&
	grep -q '^| Pre-train until converged | [0-9.]* ± [0-9.]* \[2 runs\] | [0-9.]* ± [0-9.]* \[2 runs\] |\$' $R/converged.md &&
	grep -q '^| Baseline (no pre-train) | [0-9.]* ± [0-9.]* \[2 runs\] |' $R/converged.md &&
	grep -q 'prog=gcn-train .*--epochs 2 --patience 10' $R/converged.md" \
	"converged: the longer pre-training's epochs, validation curve beside Table 1's model, and cells"
check "grep -q 'prog=dcbm-gen .*seed=1 .*dcbm-quick.yaml' $R/table1.md && grep -q 'prog=gcn-train' $R/table1.md &&
	grep -q '^[0-9a-f]\{64\}  pretrain-quick.yaml' $R/table1.md" \
	"table1: provenance of every stage and the configs' checksums"
check "[ \$(grep -c 'prog=gcn-adapt .*--first-run R --runs 1 .*/cora--base.txt.parts/rR.txt ' $R/table1.md) -eq 1 ]" \
	"table1: a cell's per-run gcn-adapt calls are listed once"
check "grep -q '^| 2-layer GCN on the four features, no pre-training (\`downstream/results.md\`) | Baseline (no pre-train) | 26.6 ± 6.0 | 40.5 ± 2.5 | 35.2 ± 0.4 | – |' $R/table1.md" \
	"table1: the PyTorch references (reference.tsv) under the table"
check "! grep -q 'Notes on the data' $R/table1.md" "table1: no data note when every node has its attributes (Cora)"
# a dataset with attributes for only some nodes gets a note under the table
mkdir -p "$T/nd/score" "$T/nd/data"
cp "$T/build/score/cora--attr.tsv" "$T/nd/score/pubmed--attr.tsv"
expect 0 "graph-import -q -f linqs --attributes $TOP/tests/cli/data/import-attr.txt -o $T/nd/data/pubmed.gs \
	$TOP/tests/cli/data/import-labels.txt $TOP/tests/cli/data/import-tiny.cites"
expect 0 "DATA=$T/nd/data sh $TOP/pipelines/table.sh table1 $T/nd title >$T/nd/table1.md"
check "grep -q '^## Notes on the data' $T/nd/table1.md &&
	grep -q '^- Pubmed: the data (\`$T/nd/data/pubmed.gs\`) has node attributes for only' $T/nd/table1.md &&
	grep -q '^  2 of 5 nodes ' $T/nd/table1.md" "table1: partial attributes (attributed_nodes) get a note"
for f in fig2 fig3 fig5 fig5-degrees; do
	check "[ \"\$(head -c 4 $R/$f.png | od -An -c | tr -d ' ')\" = '211PNG' ] && grep -q '<svg' $R/$f.svg" \
		"$f: a PNG and an SVG"
done
for f in fig2 fig3 fig5; do
	check "grep -q '^\*\*Figure' $R/$f.md || grep -q '^\*\*Figure\|^!\[' $R/$f.md" "$f: a caption"
done
check "awk -F '\t' '!/^#/ { a += \$2; b += \$3; c += \$4; n++ }
	END { exit !(n == 3 && a > 0.99 && a < 1.01 && b > 0.99 && b < 1.01 && c > 0.99 && c < 1.01) }' $R/fig2.dat" \
	"fig2: each task's layer weights over the L = 3 blocks sum to 1"
check "[ \$(grep -vc '^#' $R/fig3.dat) -eq 5 ]" "fig3: five boundaries"
check "grep -q '^id=[0-9a-f]\{8\} prog=gcn-train .*--tasks rec,rank,cluster' $R/fig2.md &&
	grep -q 'prog=dcbm-gen .*seed=1 .*dcbm-quick.yaml' $R/fig2.md &&
	grep -q '^[0-9a-f]\{64\}  pretrain-quick.yaml' $R/fig2.md" \
	"fig2: the provenance of the model, read from its binary stream, and the configs"
check "[ \$(grep -c 'prog=gcn-adapt .*--random-above .*/cora--fz[m0-9]*-rand.txt.parts/rR.txt ' $R/fig3.md) -eq 4 ] &&
	grep -q 'prog=gcn-adapt .*--no-pretrain .*/cora--base.txt.parts/rR.txt ' $R/fig3.md &&
	grep -q 'prog=gcn-train .*--tasks rec,rank,cluster' $R/fig3.md" \
	"fig3: the provenance of its cells, each arm's gcn-adapt call once (\"none\" random: the baseline's)"
check "grep -q 'model-arch.gs --no-pretrain' $T/build/pred/cora--base.txt && ! grep -q 'model-all' $T/build/pred/cora--base.txt" \
	"the baseline takes its shape from model-arch.gs, not the pre-trained model"

# cached: nothing to redo; a changed stage input redoes what depends on it
expect 0 "$P -q table1 fig2 fig3"
touch "$T/build/pred/cora--base.txt"
check "! $P -q table1" "a newer predictions file: table1 is out of date"
expect 0 "$P -q fig2"

# a stage swapped through a variable is rebuilt even when its file is
# older than the build; going back to the default rebuilds it again
dcbm-gen -q --count 12 -s 7 --nodes 60..90 -o "$T/mine.gs"
touch -d 2000-01-01 "$T/mine.gs"
check "! $P -q GRAPHS=$T/mine.gs fig2" "GRAPHS=older file: fig2 is out of date"
expect 0 "$P GRAPHS=$T/mine.gs fig2 >/dev/null 2>&1"
check "grep -q 'seed=7' $T/build/labelled.gs || zcat $T/build/labelled.gs | grep -aq 'seed=7'" \
	"GRAPHS=: the labelled graphs are the swapped ones"
expect 0 "$P -q GRAPHS=$T/mine.gs fig2"
check "! $P -q fig2" "back to the default GRAPHS: fig2 is out of date again"
check "! $P -q TRAIN_CONFIG=$TOP/pipelines/pretrain-quick.yaml GRAPHS=$T/mine.gs ADAPT_OPTS='--epochs 3' \
	$T/build/pred/cora--base.txt" "ADAPT_OPTS=: the cells are out of date"
# a new BUILD directory is made, whatever the first target
expect 0 "$P BUILD=$T/new/b GRAPHS=$T/mine.gs $T/new/b/labelled.gs >/dev/null 2>&1"
check "[ -s $T/new/b/labelled.gs ]" "BUILD=new directory: made"
expect 0 "$P fig2 >/dev/null 2>&1"

# a stage that fails leaves no file behind
printf 'train:\n  bogus: 1\n' >"$T/bad.yaml"
check "! $P TRAIN_CONFIG=$T/bad.yaml BUILD=$T/b2 $T/b2/model-all.gs 2>$T/bad.err" "a failing stage fails make"
check "grep -q 'gcn-train: .*bogus' $T/bad.err" "and gcn-train says why"
check "[ ! -e $T/b2/model-all.gs ]" "no model file after a failed stage"

# a stopped cell keeps its finished runs: a gcn-adapt that fails on run 1
# leaves run 0 in OUT.parts/, and the next make redoes run 1 only
mkdir -p "$T/wbin"
printf '#!/bin/sh\ncase " $* " in *" --first-run 1 "*) echo "gcn-adapt: stopped" >&2; exit 1 ;; esac\nexec %s/gcn-adapt "$@"\n' \
	"$BIN" >"$T/wbin/gcn-adapt"
chmod +x "$T/wbin/gcn-adapt"
grep -v '^[@#]' "$T/build/pred/cora--attr.txt" >"$T/attr-runs.txt"
rm "$T/build/pred/cora--attr.txt"
check "! $P BIN=$T/wbin $T/build/pred/cora--attr.txt 2>$T/stop.err" "a cell whose run 1 fails fails make"
check "[ ! -e $T/build/pred/cora--attr.txt ] && [ -s $T/build/pred/cora--attr.txt.parts/r0.txt ] &&
	[ ! -e $T/build/pred/cora--attr.txt.parts/r1.txt ]" "no predictions file; run 0 kept in the parts"
expect 0 "$P status >$T/status.out"
check "grep -q '^  model-all: done' $T/status.out && grep -q '^  in progress or stopped: cora--attr (1 runs done)' $T/status.out &&
	grep -q '^  adaptation cells done: [0-9]* of [0-9]* ([0-9]* scored)' $T/status.out" \
	"status: the models, the cells scored, a cell in progress with its finished runs"
# the time left: the runs of the cells left (2 each; cora--attr has 1 of
# its 2 runs kept; Figure 4's two 100% cells are copies, no runs) at their
# dataset's and arm's mean run time
n=$(sed -n 's/^  left, per dataset://p' $T/status.out | awk '{ for (i = 2; i <= NF; i += 2) s += $i } END { print s + 0 }')
check "grep -q '^  left: about [0-9.]* hours of adaptation runs on one job ([1-9][0-9]* runs)\$' $T/status.out &&
	[ \"\$(sed -n 's/.*on one job (\\([0-9]*\\) runs.*/\\1/p' $T/status.out)\" = \$((2 * (${n:-0} - 2) - 1)) ]" \
	"status: the hours of adaptation runs left, from the run log"
expect 0 "$P $T/build/pred/cora--attr.txt 2>$T/resume.err"
check "grep -q 'cora, attr: 1 finished runs kept' $T/resume.err && [ ! -e $T/build/pred/cora--attr.txt.parts ] &&
	grep -v '^[@#]' $T/build/pred/cora--attr.txt | cmp -s - $T/attr-runs.txt" \
	"the rerun keeps run 0, redoes run 1: the same records as one uninterrupted call"

# a newer gcn-adapt: status counts the predictions, and stopped parts, as
# out of date, not done (make redoes them)
mkdir -p "$T/build/pred/cora--pre.txt.parts"
echo old >"$T/build/pred/cora--pre.txt.parts/args"
touch -d '2000-01-01' "$T/build/pred/cora--pre.txt.parts/args"
touch -d '1 hour' "$T/wbin/gcn-adapt"
expect 0 "$P BIN=$T/wbin status >$T/status2.out"
check "grep -q '^  adaptation cells done: 0 of [0-9]* (0 scored)' $T/status2.out &&
	grep -q '^  out of date (older than .*/wbin/gcn-adapt), to redo: [1-9][0-9]*\$' $T/status2.out &&
	grep -q '^  in progress or stopped: cora--pre (out of date, to redo)' $T/status2.out" \
	"status: predictions and parts older than gcn-adapt are out of date, not done"

# carry a run to another checkout: save, then restore into a fresh build
# directory at the same path (stage files record their command lines);
# make finds the models and cells up to date and redoes none
S="$T/saved"
expect 0 "$P save SAVED=$S 2>$T/save.err"
check "[ -s $S/stamp.models ] && [ -s $S/stamp.cells ] && [ -s $S/model-all.gs ] && [ -s $S/pred/cora--base.txt ] &&
	[ -s $S/runs.tsv ] && grep -q '	save	1 models, 0 checkpoints, [1-9][0-9]* finished cells' $S/carry.log" \
	"save: the models, the cells, the logs, two stamps and a line in carry.log"
mv "$T/build" "$T/b0"
expect 0 "$P restore SAVED=$S 2>$T/restore.err"
check "grep -q 'restored models and cells' $T/restore.err && cmp -s $S/model-all.gs $T/build/model-all.gs" "restore: models and cells back"
check "$P -q $T/build/model-all.gs $T/build/pred/cora--pre.txt $T/build/pred/cora--base.txt" \
	"restored models and cells are up to date for make"
expect 0 "$P RESULTS=$T/r3 table1 >$T/r3.out 2>$T/r3.err"
check "! grep -q 'gcn-adapt\\|gcn-train' $T/r3.err && cmp -s $T/results/table1.md $T/r3/table1.md" \
	"table1 from the restored run: no stage redone, the same table"
check "grep -c . $T/build/runs.tsv | grep -qx \"\$(grep -c . $S/runs.tsv)\"" "the run log carried over"
# restore over a build that still holds the run, whose cheap stages were
# remade (newer than the models): the same files are dated anew, in stage
# order, and make redoes nothing; a file that differs is kept and named
touch "$T/build/dcbm.gs" "$T/build/labelled.gs" "$T/build/model-arch.gs"
check "! $P -q $T/build/pred/cora--base.txt" "(a remade cheap stage puts the cells out of date)"
cp "$T/build/pred/cora--base.txt" "$T/base.keep"
echo changed >>"$T/build/pred/cora--base.txt"
expect 0 "$P restore SAVED=$S 2>$T/restore6.err"
check "grep -q 'restored models and cells' $T/restore6.err &&
	grep -q '^carry.sh: .*pred/cora--base.txt exists and differs from the saved one, kept\$' $T/restore6.err &&
	[ \$(grep -c 'exists' $T/restore6.err) = 1 ] && tail -1 $T/build/pred/cora--base.txt | grep -qx changed" \
	"restore over the same run: a differing file kept and named, no other"
cp "$T/base.keep" "$T/build/pred/cora--base.txt"
check "$P -q $T/build/model-all.gs $T/build/pred/cora--pre.txt" \
	"restore over the same run: its files dated anew, up to date for make"
# a dataset that may not be redistributed (THIN, the Makefile's NO_REDIST):
# its cells carried without the true classes, which restore takes from the
# dataset's edge labels again; evalf1 scores them the same
dcbm-gen -q -s 3 --count 1 --nodes 300 -t | awk '/^@/ { on = /^@graph/; next }
	on && NF == 2 { print $1, $2, 2 + 3 * (($1 + $2) % 3) }' >"$T/lk.txt"
graph-import -q -f edgelist --name lk -o "$T/lk.gs" "$T/lk.txt"
L="gcn-adapt -q -j 2 --task link --model $T/build/model-arch.gs --no-pretrain -s 1 --epochs 3 -t"
expect 0 "$L --runs 2 -o $T/build/pred/lk--base.txt $T/lk.gs"
mkdir -p "$T/build/pred/lk--pre.txt.parts"
echo "the kept run's arguments" >"$T/build/pred/lk--pre.txt.parts/args"
expect 0 "$L --runs 1 -o $T/build/pred/lk--pre.txt.parts/r0.txt $T/lk.gs"
cp "$T/build/pred/lk--base.txt" "$T/lk-base.orig"
S2="$T/saved2"
C="BIN=$BIN TRAIN_CONFIG=pretrain-quick.yaml GRAPHS=$T/build/dcbm.gs THIN=lk sh carry.sh"
expect 0 "cd $TOP/pipelines && $C save $T/build $S2 $T/lk.gs 2>$T/thin.err"
check "[ -s $S2/thin/pred/lk--base.txt.gz ] && [ -s $S2/thin/pred/lk--pre.txt.parts/r0.txt.gz ] &&
	[ ! -e $S2/pred/lk--base.txt ] && [ ! -e $S2/pred/lk--pre.txt.parts ] && [ -s $S2/pred/cora--base.txt ] &&
	grep -q '(2 files thin)\$' $S2/carry.log" "save THIN: the cells of lk under thin/ only, the others whole"
check "gzip -dc $S2/thin/pred/lk--base.txt.gz | awk '/^@tensor/ { t++; if (!/ cols=2 .*columns=item_step,pred /) exit 1; next }
	/^[#@]/ { next } NF != 2 { exit 1 } END { exit t != 2 }'" "a thin cell holds items and predictions only: no true class"
rm -rf "$T/build/pred/lk--base.txt" "$T/build/pred/lk--pre.txt.parts"
expect 0 "cd $TOP/pipelines && $C restore $T/build $S2 $T/lk.gs 2>$T/thin2.err"
# (a run's rows come back in the order of the items)
K="awk '/^@tensor/ { r++ } !/^[#@]/ { print r, \$1, \$2, \$3 }'"
check "$K $T/lk-base.orig | sort >$T/lk.a && $K $T/build/pred/lk--base.txt | sort | cmp -s - $T/lk.a &&
	[ \$(grep -c . $T/lk.a) -gt 100 ] && [ \$(grep -c '^@tensor .* cols=3 .*columns=item,true,pred .*carried=thin\$' $T/build/pred/lk--base.txt) = 2 ] &&
	grep -qx \"the kept run's arguments\" $T/build/pred/lk--pre.txt.parts/args && [ -s $T/build/pred/lk--pre.txt.parts/r0.txt ]" \
	"restore THIN: the true classes back from the dataset, the kept run and its arguments too"
expect 0 "evalf1 --format tsv $T/lk-base.orig >$T/lk-f1.a && evalf1 --format tsv $T/build/pred/lk--base.txt >$T/lk-f1.b"
check "cmp -s $T/lk-f1.a $T/lk-f1.b" "evalf1 scores a restored thin cell as the original"
sed -i '/^@tensor/,/^@end/ { /^[0-9]/ s/^\([0-9]*\)\t\([0-9]*\)\t\([0-9]*\)/\1\t\2\t9/ }' "$T/build/pred/lk--base.txt"
expect 0 "cd $TOP/pipelines && $C restore $T/build $S2 $T/lk.gs 2>$T/thin3.err"
check "grep -q '^carry.sh: .*pred/lk--base.txt exists and differs from the saved one, kept\$' $T/thin3.err &&
	[ \$(grep -c exists $T/thin3.err) = 1 ]" "restore THIN over a cell that differs: kept and named"
gzip -dc "$S2/thin/pred/lk--base.txt.gz" | sed 's/^[0-9]*\t/99999\t/' | gzip >"$T/bad.gz"
mkdir -p "$T/saved3" && cp -r "$S2"/* "$T/saved3/" && mv "$T/bad.gz" "$T/saved3/thin/pred/lk--base.txt.gz"
rm -f "$T/build/pred/lk--base.txt"
check "cd $TOP/pipelines && ! $C restore $T/build $T/saved3 $T/lk.gs 2>$T/thin4.err && [ \$(grep -c . $T/thin4.err) = 1 ] &&
	grep -q '^carry.sh: .*lk--base.txt.gz: an item or label the dataset does not have; not restored\$' $T/thin4.err &&
	[ ! -e $T/build/pred/lk--base.txt ]" "restore THIN of a thin cell the dataset does not fit: one line, exit 1, no cell written"
cp -r "$S2" "$T/s2.keep"
check "cd $TOP/pipelines && ! $C save $T/build $S2 $T/build/dcbm.gs 2>$T/thin5.err && [ \$(grep -c . $T/thin5.err) = 1 ] &&
	grep -q '^carry.sh: lk: no dataset stream among the data files' $T/thin5.err" "save THIN without the dataset: one line, exit 1"
check "diff -r $S2 $T/s2.keep >/dev/null && ! ls -d $T/saved2.tmp.* 2>/dev/null" "a failed save leaves the saved run as it was"
rm -rf "$T/build/pred/lk--"*

# another pre-training config: the models' stamp differs, nothing restored
rm -rf "$T/build"
sed 's/^seed: .*/seed: 5/' $TOP/pipelines/pretrain-quick.yaml >$T/other.yaml
check "grep -q '^seed: 5' $T/other.yaml" "(a config with another seed)"
expect 0 "$P TRAIN_CONFIG=$T/other.yaml restore SAVED=$S 2>$T/restore4.err"
check "grep -q 'models were made by another gcn-train, config' $T/restore4.err && [ ! -e $T/build/model-all.gs ] &&
	[ ! -e $T/build/pred ]" "another config: no model or cell restored, and it says why"
check "! $P restore SAVED=$T/nothing 2>$T/restore5.err" "restore from an empty directory fails"
check "grep -q '^carry.sh: .*nothing saved there\$' $T/restore5.err" "with a clear error"

# ---- the transfer benchmark at its quick size (transfer.mk) ----
TQ="$T/tq"
PT="make -s -C $TOP/pipelines QUICK=1 THREADS=2 BIN=$BIN BUILD=$TQ/build RESULTS=$TQ/results"
expect 0 "$PT transfer >$TQ.out 2>$TQ.err"
TM="$TQ/results/transfer.md"
# a row per set and protocol; every arm's cell a mean ± sd in 0..100 and a
# paired interval around its difference (the random network's too: its
# draws are one set of runs)
check "awk -F ' [|] ' '/^Fine-tuning against/ { done = 1 } !done && /^[|] (mutag|roles-ba) [|]/ { n++
	for (i = 3; i <= 7; i++) if (\$i != \"–\" && \$i !~ /^[0-9]+\\.[0-9] ± [0-9]+\\.[0-9]\$/) exit 1
	for (i = 8; i <= 11; i++) if (\$i != \"–\" && \$i !~ /[-+][0-9]+\\.[0-9] \\[[-+][0-9]+\\.[0-9], [-+][0-9]+\\.[0-9]\\]/) exit 1
	if (\$8 == \"–\") exit 1 }
	END { exit n != 4 }' $TM" "transfer: mutag's folds, roles-ba's two probes and its fine-tuning, every arm against the pre-trained"
check "grep -q '^| mutag | probe, 10 folds | ' $TM && grep -q '^| roles-ba | probe, 20 a class | ' $TM &&
	grep -q '^| roles-ba | probe, 80/20 | ' $TM && grep -q '^| roles-ba | fine-tuning, 20 a class | .* – | – | – |\$' $TM" \
	"transfer: the protocols named, fine-tuning against the random network only"
# and the fine-tuning against the probe of the same arm, on the probe's items
check "grep -q '^| roles-ba | fine-tuning, 20 a class | [0-9.]* ± [0-9.]* | [0-9.]* ± [0-9.]* | [-+_*]*[0-9.]* \[.*\][_*]* | [0-9.]* ± [0-9.]* | [0-9.]* ± [0-9.]* | [-+_*]*[0-9.]* \[.*\][_*]* |\$' $TM" \
	"transfer: the fine-tuning against the probe, pre-trained and random"
# the random arm: a network drawn anew for every run, from the run's seed
check "[ \$(ls $TQ/build/transfer/vec/roles-ba--rand-*.gs | wc -l) = 3 ] &&
	[ \$(ls $TQ/build/transfer/vec/mutag--rand-*.gs | wc -l) = 10 ] &&
	! cmp -s $TQ/build/transfer/vec/roles-ba--rand-0.gs $TQ/build/transfer/vec/roles-ba--rand-1.gs" \
	"transfer: a random network for each run (node sets) and each fold (graph sets)"
# every arm of a set is probed on the same splits: the same items tested
ti() { echo "awk '/^@tensor/ { r++ } !/^[#@]/ { print r, \$1 }' $1 | sort"; }
check "$(ti "$TQ/build/transfer/pred/roles-ba--pre--few.gs") >$TQ/a && $(ti "$TQ/build/transfer/pred/roles-ba--refex--few.gs") | cmp -s - $TQ/a &&
	$(ti "$TQ/build/transfer/pred/roles-ba--rand--few.gs") | cmp -s - $TQ/a &&
	$(ti "$TQ/build/transfer/pred/mutag--pre--folds.gs") >$TQ/b && $(ti "$TQ/build/transfer/pred/mutag--rand--folds.gs") | cmp -s - $TQ/b &&
	$(ti "$TQ/build/transfer/tune/roles-ba--pre--few.gs") | cmp -s - $TQ/a && $(ti "$TQ/build/transfer/tune/roles-ba--rand--few.gs") | cmp -s - $TQ/a &&
	[ \$(grep -c . $TQ/a) -gt 600 ] && [ \$(grep -c . $TQ/b) = 188 ]" "transfer: the arms of a set tested on the same items, run by run, fine-tuned too"
check "$PT -q $TM" "transfer: made, nothing left to do"
# the feat arm is the model's input: the shipped model's four, and
# --scale both for a model of stage both; a model whose stage nodefeat
# cannot give is refused by name
check "gzip -dc $TQ/build/transfer/vec/roles-ba--feat.gs | grep -aq 'cols=4 .*columns=degree,core,ci1,clustering '" \
	"transfer: the feat arm of the shipped model is its stage paper, 4 columns"
# (the feat arm reads only the model's stage: a file of that line will do)
printf 'features.stage: "both"\n' >$TQ/both-model.txt
check "cd $TOP/pipelines && env BIN=$BIN THREADS=1 TR_MODEL=$TQ/both-model.txt sh transfer.sh vec roles-ba feat $TQ/build/transfer/vec/both-feat.gs &&
	gzip -dc $TQ/build/transfer/vec/both-feat.gs | grep -aq 'cols=7 .*columns=degree,core,ci1,clustering,degree_log,core_log,ci1_log'" \
	"transfer: the feat arm of a model of stage both is nodefeat --scale both, 7 columns"
printf 'features.stage: "stream"\n' >$TQ/stream-model.txt
check "cd $TOP/pipelines && ! env BIN=$BIN THREADS=1 TR_MODEL=$TQ/stream-model.txt sh transfer.sh vec roles-ba feat $TQ/build/transfer/vec/x.gs 2>$TQ/feat.err &&
	grep -q '^transfer.sh: the feat arm: no nodefeat options for the feature stage of .*stream-model.txt (stream)\$' $TQ/feat.err" \
	"transfer: the feat arm of a stage nodefeat cannot give: one clear line"
