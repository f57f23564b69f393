# docs.test.sh - what a program accepts, its help and its manual say:
# every long option in a program's getopt table (and the shared ones of
# COPT_LONGOPTS) is listed by `prog -h` and described in man/man1/prog.1,
# and the model attributes gcn-train writes are described in gcn-train(1).
# Sourced by run.sh with lib.sh.
T="$TMPD/docs"
mkdir -p "$T"
shared="help level output progress quiet seed text threads version"
for src in "$TOP"/tools/*.c; do
	p=$(basename "$src" .c)
	own=$(sed -n 's/^[[:space:]]*{ *"\([a-zA-Z0-9-]*\)", *\(no\|required\|optional\)_argument.*/\1/p' "$src")
	"$p" -h >"$T/$p.help" 2>&1
	missing_h="" missing_m=""
	for o in $own $shared; do
		grep -q -- "--$o\([^a-z0-9-]\|\$\)" "$T/$p.help" || missing_h="$missing_h --$o"
		grep -q -- "\(\\\\-\| -\)$o\([^a-z0-9-]\|\$\)" "$TOP/man/man1/$p.1" ||
			missing_m="$missing_m --$o"
	done
	check "[ -z '$missing_h' ]" "$p -h lists every option it accepts (missing:$missing_h)"
	check "[ -z '$missing_m' ]" "$p(1) describes every option $p accepts (missing:$missing_m)"
done

# the attributes of gcn-train's model record, each in gcn-train(1)
dcbm-gen -q --count 6 -s 1 --nodes 30..40 | centrality -q >"$T/g.gs"
expect 0 "gcn-train -q -j 1 --hidden 8 --epochs 1 --batch 2 -t -o $T/m.txt $T/g.gs"
keys=$(grep '^@model' "$T/m.txt" | tr ' ' '\n' | sed -n 's/=.*//p' | sed 's/^layer_weights\..*/layer_weights./' | sort -u)
undoc=""
for k in $keys; do
	case $k in name|config|params|pg) continue ;; esac	# the record's own fields (gnnstream(5))
	grep -q "Cm $k\([^a-z0-9_.]\|\$\)\|Cm [a-z_.]*, $k\([^a-z0-9_.]\|\$\)\| , $k\([^a-z0-9_.]\|\$\)" "$TOP/man/man1/gcn-train.1" ||
		undoc="$undoc $k"
done
check "[ -n '$keys' ] && [ -z '$undoc' ]" "gcn-train(1) describes every model attribute (missing:$undoc)"

# gnnstream(5) states one node limit, the readers' (GS_MAX_NODES = 2^26)
check "grep -q '2^26' $TOP/man/man5/gnnstream.5 && ! grep -q '2^31' $TOP/man/man5/gnnstream.5" \
	"gnnstream(5): the node limit is 2^26 wherever it is stated"
# and the binary framing of a model's parameters
check "grep -q 'parameters, each framed like a record: a 32-bit little-endian length' $TOP/man/man5/gnnstream.5" \
	"gnnstream(5): a param header's 32-bit length prefix"

# docs/architecture.md's layer table is the includes' (mk/floors.sh, also
# in make lint), and every common/ file and program has a row of its own
# in "What each file is for"
check "sh $TOP/mk/floors.sh >/dev/null" "docs/architecture.md: the layer table is the includes' (mk/floors.sh)"
norow=""
for f in "$TOP"/common/*.c "$TOP"/tools/*.c; do
	grep -q "^| [^|]*\`$(basename "$f")\`" "$TOP/docs/architecture.md" ||
		norow="$norow ${f#"$TOP"/}"
done
check "[ -z '$norow' ]" "docs/architecture.md: a row for every file of common/ and tools/ (missing:$norow)"
