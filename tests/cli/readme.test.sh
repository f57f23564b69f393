# readme.test.sh - the README's commands run as written: every line of its
# "A first pipeline" block, and the downstream lines that take seconds
# (gcn-embed, gcn-export), each in a fresh directory with the repository's
# data/ and models/ beside it; the slow lines (pre-training at the paper's
# size, ten fine-tuning runs) must name files that exist and options the
# programs take (--help lists them).  Issue 40: README commands that named
# files nothing made.
T="$TMPD/readme"
mkdir -p "$T"
R="$TOP/README.md"
# the first indented block of a section, comments cut
block() {
	awk -v sec="$1" '/^## / { on = index($0, sec) > 0; next }
		on && /^    [^ ]/ { sub(/^    /, ""); sub(/  +# .*/, ""); print; got = 1; next }
		on && got && !/^$/ { exit }' "$R"
}
block "A first pipeline" | grep -v '^make$\|^export PATH' >"$T/first.sh"
check "[ \$(wc -l <$T/first.sh) -ge 6 ]" "README: the first pipeline has its lines"
mkdir -p "$T/first"
expect 0 "cd $T/first && sh -e $T/first.sh >out 2>err" "README: the first pipeline runs as written"
check "[ -s $T/first/tiny.gs ] && [ -s $T/first/pretrain.gs ]" "README: the first pipeline makes its files"
mkdir -p "$T/down"
ln -s "$TOP/data" "$T/down/data"
ln -s "$TOP/models" "$T/down/models"
sed -n '/^Downstream, from a pre-trained/,/^`man/p' "$R" | sed -n 's/^    //p' | sed 's/  *# .*//' >"$T/down.sh"
grep '^gcn-embed\|^gcn-export' "$T/down.sh" >"$T/fast.sh"
check "[ \$(wc -l <$T/fast.sh) -eq 2 ]" "README: a gcn-embed and a gcn-export line downstream"
expect 0 "cd $T/down && sh -e $T/fast.sh 2>err" "README: gcn-embed and gcn-export run as written"
check "[ -s $T/down/emb.npy ] && [ -s $T/down/model.safetensors ]" "README: emb.npy and model.safetensors made"
# every file a README command names exists, every long option is the program's
sed -n 's/^    //p' "$R" | sed 's/  *# .*//' | grep -E '^(dcbm-gen|gcn-|graph-|mask-|nodefeat|centrality|evalf1|linprobe|motif-)' |
	tr '|' '\n' >"$T/cmds"
bad=
while read -r prog rest; do
	[ -n "$prog" ] || continue
	for w in $rest; do
		case $w in
		--*=*) w=${w%%=*} ;;
		esac
		case $w in
		--*) "$BIN/$prog" --help 2>&1 | grep -q -- "$w\b" || bad="$bad $prog:$w" ;;
		data/* | models/* | pipelines/*) [ -e "$TOP/$w" ] || bad="$bad $w" ;;
		esac
	done
done <"$T/cmds"
check "[ -z '$bad' ]" "README: its commands' files exist and their options are the programs' ($bad)"
