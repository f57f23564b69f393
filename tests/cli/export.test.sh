# export.test.sh - gcn-export: a model record as a safetensors file (issue
# 31), read back by an independent reader (tests/cli/export_check.py:
# struct, json, numpy; never gnnpipe's code nor the safetensors package),
# and gnnstream(5)'s binary model layout checked against the programs in
# both directions.  The Python checks need python3 (numpy for the
# embeddings, torch for the manual's loader); without them they print SKIP
# and count nothing.  Sourced by run.sh with lib.sh.
T="$TMPD/export"
mkdir -p "$T"
CHK="$TOP/tests/cli/export_check.py"
# (in fp32: three runs must train one model, and auto's choice is a timing)
TR="-q -j 1 -s 1 --hidden 16 --epochs 1 --batch 2 --validation 1 --precision fp32"

# the first of /usr/bin/python3 (the one `make bench` uses) and python3
# that imports $1
pick_py() {
	for p in /usr/bin/python3 python3; do
		if command -v "$p" >/dev/null 2>&1 && "$p" -c "import $1" 2>/dev/null; then
			echo "$p"
			return
		fi
	done
}
PY=$(pick_py json)
NP=$(pick_py numpy)
TORCH=$(pick_py "numpy, torch")
# py DESCRIPTION COMMAND...: a Python check, its output in the failure
py() {
	_d=$1
	shift
	if _o=$("$@" 2>&1); then lib_ok; else lib_bad "$_d: $(echo "$_o" | tail -n 3)"; fi
}

dcbm-gen -q --count 6 -s 1 --nodes 30..40 | centrality -q >"$T/g.gs"
expect 0 "gcn-train $TR -t -o $T/m.txt $T/g.gs"
expect 0 "gcn-train $TR -l 0 -o $T/m.gs $T/g.gs"
expect 0 "gcn-train $TR -o $T/mz.gs $T/g.gs"
expect 0 "gcn-export -o $T/m.st $T/m.txt"
expect 0 "gcn-export -o $T/mb.st $T/m.gs"
expect 0 "gcn-export $T/m.gs >$T/mb2.st"
same "$T/mb.st" "$T/mb2.st" "the same model exports the same bytes, to -o or stdout"
gzip -c "$T/m.gs" >"$T/m.gs.gz"
expect 0 "gcn-export <$T/m.gs.gz >$T/mz.st"
same "$T/mb.st" "$T/mz.st" "a gzip stream on stdin exports as the plain file"

# the layout with the shell's tools alone: 8 + header + data = the file,
# the header a multiple of 8 starting with the metadata
hlen=$(($(head -c 8 "$T/m.st" | od -An -tu8)))
data=$(awk '/^@param / { r = c = 0
	for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "rows") r = kv[2]; if (kv[1] == "cols") c = kv[2] }
	s += r * c * 4 } END { print s }' "$T/m.txt")
check "[ $((hlen % 8)) -eq 0 ] && [ $(wc -c <"$T/m.st") -eq $((8 + hlen + data)) ] &&
	[ \"\$(tail -c +9 $T/m.st | head -c 16)\" = '{\"__metadata__\":' ]" \
	"safetensors: 8 + header ($hlen bytes, a multiple of 8) + data ($data bytes) is the file"
check "tail -c +9 $T/m.st | head -c $hlen | grep -q '\"embed.W\":{\"dtype\":\"F32\",\"shape\":\[4,16\],\"data_offsets\":\[0,256\]}'" \
	"embed.W is the first tensor, F32 [4, 16] at offset 0"

# what is not exported is said (unless -q); --name chooses
expect 0 "cat $T/g.gs $T/m.gs | gcn-export -o $T/x.st 2>$T/x.err"
check "grep -q '^gcn-export: <stdin>: ignored [0-9]* records that are not a model$' $T/x.err" \
	"gcn-export says it skipped the graphs"
expect 0 "cat $T/g.gs $T/m.gs | gcn-export -q -o $T/x.st 2>$T/xq.err"
check "[ ! -s $T/xq.err ]" "-q: no warning"
expect 0 "gcn-train $TR --epochs 2 --checkpoint $T/ck.txt -t -o $T/m2.txt $T/g.gs"
expect 0 "cat $T/ck.txt $T/m.gs | gcn-export -o $T/two.st 2>$T/two.err"
check "grep -q \"2 model records; exported the first, 'gcn-pretrain-checkpoint'\" $T/two.err &&
	tail -c +9 $T/two.st | grep -q '\"state.adam_m\":{\"dtype\":\"F32\",\"shape\":\[[0-9]*,1\]'" \
	"of two models the first is exported, and said: a checkpoint, its optimiser state too"
expect 0 "cat $T/ck.txt $T/m.gs | gcn-export --name gcn-pretrain -o $T/named.st"
expect_err 1 "gcn-export --name nothere $T/m.gs" "m.gs: no model record named 'nothere' (there is 'gcn-pretrain')"
expect_err 1 "gcn-export $T/g.gs" "g.gs: no model record"
expect_err 2 "gcn-export -t $T/m.gs" "-t: gcn-export writes a safetensors file, not a stream"
expect_err 2 "gcn-export -s 1 $T/m.gs" "-s: gcn-export writes a safetensors file"
expect_err 2 "gcn-export --format npz $T/m.gs" "--format: 'npz': expected safetensors"
expect_err 1 "gcn-export $T/m.gs >&-" "<stdout>: write error: Bad file descriptor"
expect_err 1 "gcn-export $T/m.gs >/dev/full" "<stdout>: write error: No space left on device"
# binary data are not written to a terminal (script(1) gives one)
if command -v script >/dev/null 2>&1; then
	script -qec "gcn-export $T/m.gs" /dev/null >"$T/tty.out" 2>&1
	rc=$?
	check "[ $rc -eq 2 ] && grep -q 'gcn-export: refusing to write binary data to a terminal' $T/tty.out &&
		[ \$(wc -c <$T/tty.out) -lt 200 ]" "gcn-export refuses a terminal, exit 2"
else
	echo "SKIP: export.test.sh: no script(1): the terminal case did not run"
fi
# a config that is not UTF-8 (the badinput table has more bad models)
# (the config's last line is "seed: 1": its next-to-last byte becomes 0xff)
sed "s/^seed: 1\$/seed: $(printf '\377')/; s/^@end .*/@end/" "$T/m.txt" >"$T/latin.txt"
cfg=$(sed -n 's/^@model .* config=\([0-9]*\) .*/\1/p' "$T/m.txt")
expect_err 1 "gcn-export -o $T/latin.st $T/latin.txt" \
	"latin.txt: record 4: metadata 'gnnpipe.config': byte $((cfg - 2)) of the value is not UTF-8"
check "[ ! -e $T/latin.st ] && [ -z \"\$(ls $T | grep tmp)\" ]" "a refused model leaves no file"

# ---- the independent reader ----
if [ -z "$PY" ]; then
	echo "SKIP: export.test.sh: no python3: the safetensors files and gnnstream(5)'s layout were not read back"
else
	py "the export of a text model" "$PY" "$CHK" check "$T/m.st" "$T/m.txt"
	py "the export of a checkpoint" sh -c "gcn-export -o $T/ck.st $T/ck.txt && $PY $CHK check $T/ck.st $T/ck.txt"
	py "binary and text forms export the same" "$PY" "$CHK" same "$T/m.st" "$T/mb.st"
	py "--name exports the named model" "$PY" "$CHK" same "$T/mb.st" "$T/named.st"
	# gnnstream(5), Binary form: the writer's bytes read by the documented
	# layout, plain and gzip ...
	py "a plain binary model read by gnnstream(5)'s layout" "$PY" "$CHK" stream "$T/m.gs" "$T/m.txt"
	py "a gzip binary model read by gnnstream(5)'s layout" "$PY" "$CHK" stream "$T/mz.gs" "$T/m.txt"
	# ... and a record made by hand from that layout read by the programs:
	# every parameter type, JSON's escapes in the config, an empty tensor
	py "a hand-made binary model record" "$PY" "$CHK" build "$T/hand.gs"
	expect 0 "gcn-export -o $T/hand.st $T/hand.gs"
	py "the hand-made record exported" "$PY" "$CHK" built "$T/hand.st"
	expect 0 "nodefeat -t $T/hand.gs >$T/hand.txt"
	check "grep -q '^@model name=hand config=[0-9]* params=5 .*epoch=7 note=\"x y\"' $T/hand.txt &&
		grep -A2 '^@param name=d rows=2 cols=2 type=f64' $T/hand.txt | tr '\t' ' ' |
		tr '\n' '|' | grep -q '|0.10000000000000001 -1.0000000000000001e+300|3 4.9406564584124654e-324|'" \
		"the hand-made record read by nodefeat: its header and f64 values"
fi

# ---- the encoder in numpy from the exported weights, against gcn-embed ----
# graphs unseen in training, of the kind the model was trained on.  (Not
# a toy graph of repeated rows: with a model barely trained, a block's
# columns vary about as little as bn_eps, and float32's rounding, which
# BLAS does differently from row to row, moves a 5-node graph's values by
# 4e-5 where numpy's float64 does not; DCBM graphs agree within a third
# of the tolerance, measured.)
dcbm-gen -q --count 3 -s 7 --nodes 40..80 >"$T/e.gs"
nodefeat -q -t "$T/e.gs" >"$T/e.nf.txt"
if [ -z "$NP" ]; then
	echo "SKIP: export.test.sh: no numpy (Debian: python3-numpy): the embeddings were not recomputed from the exported weights"
elif [ ! -x "$BIN/gcn-embed" ]; then
	echo "SKIP: export.test.sh: no gcn-embed in $BIN: the exported weights' embeddings were computed in numpy, not compared"
	"$NP" "$CHK" embed "$T/mb.st" "$T/e.nf.txt" >"$T/embed.out" 2>&1 ||
		lib_bad "the encoder in numpy: $(tail -n 3 "$T/embed.out")"
else
	expect 0 "gcn-embed -q --model $T/m.gs --npy $T/e.npy $T/e.gs"
	py "gcn-embed's embeddings = the encoder in numpy from the exported weights (1e-5)" \
		"$NP" "$CHK" embed "$T/mb.st" "$T/e.nf.txt" "$T/e.npy"
fi

# ---- the manual's PyTorch loader, as printed in gcn-export(1) ----
if [ -z "$TORCH" ]; then
	echo "SKIP: export.test.sh: no torch (Debian: python3-torch): the manual's PyTorch loader did not run"
else
	awk '/^\.\\" tests\/cli\/export.test.sh runs the block below/ { want = 1; next }
	     want && /^\.Bd -literal/ { on = 1; next }
	     on && /^\.Ed/ { exit }
	     on { gsub(/\\e/, "\\"); print }' "$TOP/man/man1/gcn-export.1" >"$T/load.py"
	cp "$T/m.st" "$T/model.safetensors"
	py "gcn-export(1)'s PyTorch loader" sh -c "cd $T && $TORCH $CHK torch model.safetensors load.py"
fi
