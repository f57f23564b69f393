# featstage.test.sh - the feature stage (issue 30): the model's input is the
# per-node 'features' tensor of whatever stage made it, of any width, and
# the model records which; gcn-adapt checks a dataset against it.  Sourced
# by run.sh with lib.sh.
T="$TMPD/featstage"
mkdir -p "$T"
# (in fp32: runs are compared below, and auto's choice is a timing)
TR="-j 2 --hidden 16 --epochs 2 --batch 4 -s 1 --precision fp32"

dcbm-gen -q -s 3 --count 16 --nodes 60..120 | centrality -q >"$T/lab.gs"
# six columns made outside the programs: nodefeat's text form and awk (two
# columns added; the edited segment ends with a bare @end)
six() {
	awk 'BEGIN { OFS = "\t" } /^@end/ { print "@end"; next }
	/^@tensor/ { f = / name=features /
		if (f) { sub(/ cols=4 /, " cols=6 "); sub(/clustering/, "clustering,deg2,one") }
		print; next }
	/^@/ { f = 0; print; next } f { print $0, $1 * $1, 1; next } { print }'
}
mask-edges -q -s 1 "$T/lab.gs" | nodefeat -q -t | six >"$T/six.txt"
mask-edges -q -s 1 "$T/lab.gs" | nodefeat -q >"$T/four.gs"
# model attribute / config key of a text-form model
cfg() { sed -n "s/^$1: //p" "$2"; }
rows() { sed -n "s/^@param name=$1 rows=\([0-9]*\) .*/\1/p" "$2"; }

expect 0 "gcn-train $TR -t -o $T/m6.txt $T/six.txt 2>$T/m6.err"
check "grep -q 'features: the input.s .features. tensors (6 columns: degree,core,ci1,clustering,deg2,one)' $T/m6.err" \
	"gcn-train says it takes the input's six columns"
check "[ '$(rows embed.W "$T/m6.txt")' = 6 ] && [ '$(cfg features.width "$T/m6.txt")' = 6 ] &&
	[ '$(cfg features.stage "$T/m6.txt")' = '\"stream\"' ] &&
	grep -q '^features.columns: \"degree,core,ci1,clustering,deg2,one\"' $T/m6.txt" \
	"the model's input weight has 6 rows and its config records the stage"
expect 0 "gcn-train -q $TR -t -o $T/m4.txt $T/four.gs"
check "[ '$(rows embed.W "$T/m4.txt")' = 4 ] && ! cmp -s $T/m4.txt $T/m6.txt" \
	"nodefeat's four give a 4-row input weight and another model"

# a command as the stage: nodefeat itself gives the built-in four's model
# (with -j 1 it is a command, not the built-in set: featcmd.test.sh)
expect 0 "gcn-train -q $TR -t -o $T/paper.txt $T/lab.gs"
expect 0 "gcn-train $TR --features 'nodefeat -l 1' -t -o $T/cmd.txt $T/lab.gs 2>$T/cmd.err"
check "grep -q \"features: 'nodefeat -l 1' on every graph the model sees (4 columns\" $T/cmd.err" \
	"gcn-train says which command computes the features"
check "[ \"\$(grep -v '^features\.\|^@' $T/paper.txt | cksum)\" = \"\$(grep -v '^features\.\|^@' $T/cmd.txt | cksum)\" ]" \
	"--features 'nodefeat -l 1' trains the same parameters as the built-in four"
check "grep -q '^features.command: \"nodefeat -l 1\"' $T/cmd.txt" "the command is recorded in the model"

# features of unmasked graphs are not those of the graphs the model sees
nodefeat -q -t "$T/lab.gs" | six >"$T/six-unmasked.txt"
expect_err 1 "gcn-train $TR -o $T/x.gs $T/six-unmasked.txt" "describe the graphs before masking"
expect_err 1 "gcn-train $TR --features stream -o $T/x.gs $T/six-unmasked.txt" "masked afresh every step"
nodefeat -q "$T/lab.gs" >"$T/four-unmasked.gs"
expect 0 "gcn-train $TR -t -o $T/fu.txt $T/four-unmasked.gs 2>$T/fu.err"
check "grep -q 'computing them on each masked graph instead' $T/fu.err &&
	[ \"\$(grep -v '^@' $T/fu.txt | cksum)\" = \"\$(grep -v '^@' $T/paper.txt | cksum)\" ]" \
	"nodefeat's four of unmasked graphs: said, and the built-in four on each masked graph"
expect_err 1 "gcn-train $TR --features 'echo oops >&2; exit 3' -o $T/x.gs $T/lab.gs" "failed (exit 3): oops"
expect_err 1 "gcn-train $TR --features 'cat' -o $T/x.gs $T/lab.gs" "wrote no 'features' tensor for graph 0"
printf 'features:\n  width: 5\n' >"$T/w5.yaml"
expect_err 2 "gcn-train $TR --config $T/w5.yaml -o $T/x.gs $T/lab.gs" "features.width: the config says 5, the stage gives 4"
expect_err 2 "gcn-train --features '' $T/lab.gs" "--features: expected"

# gcn-adapt: a dataset must match the model's stage
dcbm-gen -q -s 9 --count 1 --nodes 300 >"$T/one.gs"
nodefeat -q -t "$T/one.gs" | six >"$T/one6.txt"
AD="-q -j 2 --runs 1 --epochs 3 --label cluster --train-per-class 5 --val 20 --test 50 -s 1 --precision fp32"
expect_err 1 "gcn-adapt $AD --model $T/m6.txt -o $T/x.gs $T/one.gs" "(6 columns: degree,core,ci1,clustering,deg2,one), and the input has none"
expect_err 1 "gcn-adapt $AD --model $T/m6.txt --features 'nodefeat -l 1' -o $T/x.gs $T/one.gs" "the model was trained on 6 columns"
expect 0 "gcn-adapt $AD --model $T/m6.txt -t -o $T/p6.txt $T/one6.txt"
check "grep -q '^@tensor .* features=stream ' $T/p6.txt" "the predictions say which features"
expect_err 1 "gcn-adapt $AD --model $T/cmd.txt -o $T/x.gs $T/one.gs" "--allow-features-command"
expect 0 "gcn-adapt $AD --model $T/cmd.txt --allow-features-command -t -o $T/pc.txt $T/one.gs"
expect 0 "gcn-adapt $AD --model $T/paper.txt -t -o $T/pp.txt $T/one.gs"
check "grep -q '^@tensor .* features=\"nodefeat -l 1\" ' $T/pc.txt &&
	[ \"\$(grep -v '^@' $T/pc.txt | cksum)\" = \"\$(grep -v '^@' $T/pp.txt | cksum)\" ]" \
	"the model's command runs on the dataset when allowed, with the built-in four's result"
expect_err 1 "gcn-adapt $AD --no-pretrain --features stream -o $T/x.gs $T/one.gs" "the input has no 'features' tensors"
expect 0 "gcn-adapt $AD --no-pretrain --features stream -t -o $T/ns.txt $T/one6.txt"
dcbm-gen -q -s 5 --count 1 --nodes 200 -t | awk '/^@graph/ { g = 1; next } /^@/ { g = 0 } g { print $1, $2, 1 + ($1 + $2) % 3 }' >"$T/lk.el"
expect_err 1 "gcn-adapt -q --task link --no-pretrain --features stream --epochs 2 -o $T/x.gs $T/lk.el" "link task computes features on each run's training"
expect 0 "gcn-adapt -q -j 2 --task link --model $T/paper.txt --runs 1 --epochs 4 -t -o $T/l1.txt $T/lk.el"
expect 0 "gcn-adapt -q -j 2 --task link --model $T/paper.txt --runs 1 --epochs 4 --features 'nodefeat -l 1' -t -o $T/l2.txt $T/lk.el"
check "[ \"\$(grep -v '^@' $T/l1.txt | cksum)\" = \"\$(grep -v '^@' $T/l2.txt | cksum)\" ]" \
	"link task: the command on each run's training graph, as the built-in four"
