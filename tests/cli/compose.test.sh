# compose.test.sh - the property of composition (issue 29): a graph filter
# (centrality, mask-edges, nodefeat) run after another either succeeds with
# a stream the next program accepts, or fails with one line and exit 1
# because its own input was bad -- it never succeeds and hands the next stage
# a stream that stage then refuses.  Sourced by run.sh with lib.sh.
#
# Each case is drawn from a seed by tests/cli/compose-gen.c (its own PRNG, so
# a seed is the same case on every machine): an input (an edge list with
# reversed duplicates, repeats, self-loops, gaps, comments, blank lines, CRLF,
# tabs, a label or networkx dict column; or a stream of several graphs in the
# text form, from dcbm-gen or from graph-import, plain, compressed, binary or
# text, with stale and foreign records), one combination (the six pairs of
# distinct programs, the paper's triple centrality | mask-edges | nodefeat,
# and the self-pairs), sometimes a stage before it, and a little variation of
# options and of how each stage reads (file, '-', stdin, pipe) and writes
# (stdout, -o).  Each stage is judged by itself:
#   exit 0   its output goes to the next stage;
#   exit 1   with exactly one 'prog: ' line on stderr (as lib.sh's expect
#            demands): passes only for the first stage (the input was bad),
#            and for mask-edges refusing a graph that is masked already (a
#            masked graph is not masked twice: by design, so mask-edges |
#            mask-edges is a case class of its own, not an exclusion);
#   else     (another exit status, a crash, 120 s without an end, a second
#            line on stderr, a file left by a failed -o): a failure.
# When every stage succeeds, a reader (nodefeat -t, or centrality -t after
# nodefeat) must accept the final output, and its text must keep the
# invariants: every graph record simple with ids below nodes, the graphs of
# the input in order with their node counts and simple edge counts (masked
# edges included), each per-node tensor one row per node, no record name
# twice for one graph (stale records replaced), each stage's own records
# present.
#
# A case is one check.  COMPOSE_CASES cases (default 300; 60 when GNN_BIN
# points at other builds, such as make test-asan's, which run several times
# slower) from seed COMPOSE_FIRST (default 1) on; COMPOSE_SEED=S runs case S
# alone, prints what it ran and keeps its files in tests/tmp/compose-S:
#   COMPOSE_SEED=17 sh tests/cli/run.sh compose
# COMPOSE_LOG=FILE appends one line per case to FILE: seed, class, stages,
# input, and the failure or the last line on stderr (for tallies by cause).
C="$TMPD/compose"
mkdir -p "$C"

GEN="$TOP/tests/bin/compose-gen"
if [ ! -x "$GEN" ] || [ "$TOP/tests/cli/compose-gen.c" -nt "$GEN" ]; then
	GEN="$C/compose-gen"	# run outside make: build it here
	${CC:-cc} -std=c11 -O2 -Wall -Wextra -o "$GEN" "$TOP/tests/cli/compose-gen.c"
fi

# awk -v EXP=file -v NEED='kind:name ...' -f check.awk TEXT: the invariants of
# a final output in the text form; prints the first broken one and exits 1.
cat >"$C/check.awk" <<'EOF'
	function bad(s) { if (!err) print s; err = 1 }
	function attr(k,   i) {
		for (i = 2; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return ""
	}
	function endbody() {
		if (kind == "graph" && nb != ne)
			bad("graph " gid ": " nb " edge lines, edges=" ne)
		if (kind == "tensor" && nb != rows)
			bad("graph " gid ": tensor " name ": " nb " rows, rows=" rows)
		if (kind == "pairs" && nb != cnt)
			bad("graph " gid ": pairs " name ": " nb " lines, count=" cnt)
		kind = ""
	}
	function endgraph(   k, i, n, need) {
		if (ng == 0)
			return
		for (k in seen)
			if (seen[k] > 1)
				bad("graph " gid ": " seen[k] " records " k " (a stale one was kept)")
		n = split(NEED, need, " ")
		for (i = 1; i <= n; i++)
			if (!(need[i] in seen))
				bad("graph " gid ": no record " need[i])
		split("", seen)
	}
	BEGIN { if (EXP != "") while ((getline l < EXP) > 0) want[++nw] = l }
	/^##gnnstream/ { next }
	/^@/ {
		endbody()
		kind = substr($1, 2)
		name = attr("name")
		nb = 0
		if (kind == "graph") {
			endgraph()
			ng++
			gid = attr("id"); nodes = attr("nodes") + 0; ne = attr("edges") + 0
			split("", pair)
			if (EXP != "" && ng <= nw) {
				split(want[ng], w, " ")
				if (gid != w[1] || nodes != w[2] + 0)
					bad("graph " ng ": id=" gid " nodes=" nodes ", want id=" w[1] " nodes=" w[2])
				if (ne + attr("masked_edges") != w[3] + 0)
					bad("graph " gid ": edges=" ne " masked_edges=" attr("masked_edges") \
					    ", want " w[3] " edges in all (the simple graph)")
			}
			if (attr("mask_fraction") != "")
				seen["graph:masked"]++
		} else if (kind == "tensor" || kind == "pairs" || kind == "label") {
			if (attr("id") != gid)
				bad(kind " " name " of graph " attr("id") " follows graph " gid)
			seen[kind ":" name]++
			rows = attr("rows") + 0; cnt = attr("count") + 0
			if (kind == "tensor" && rows != nodes)
				bad("graph " gid ": tensor " name " has " rows " rows for " nodes " nodes")
		}
		next
	}
	kind == "graph" || kind == "pairs" {
		nb++
		u = $1 + 0; v = $2 + 0
		what = kind == "graph" ? "the graph" : "pairs " name
		if (u == v)
			bad("graph " gid ": " what " holds a self-loop " u " " v)
		if (u < 0 || v < 0 || u >= nodes || v >= nodes)
			bad("graph " gid ": " what ": " u " " v " not below nodes=" nodes)
		if (kind == "pairs")
			next
		a = u < v ? u : v; b = u < v ? v : u
		if ((a, b) in pair)
			bad("graph " gid ": edge " a "-" b " twice")
		pair[a, b] = 1
		next
	}
	kind == "tensor" { nb++ }
	END {
		endbody()
		endgraph()
		if (EXP != "" && ng != nw)
			bad(ng " graphs, the input had " nw)
		exit err
	}
EOF

# one_line FILE PROG: FILE is exactly one line starting "PROG: "
one_line() { [ "$(wc -l <"$1")" -eq 1 ] && grep -q "^$2: " "$1"; }

# what_failed ERR PROG RC: why a stage's end is a failure, in a few words
what_failed() {
	case $3 in
	124) echo "$2 ran 120 s and was stopped" ;;
	1) echo "$2 exit 1 with $(wc -l <"$1") lines on stderr: $(head -c 200 "$1" | tr '\n' '|')" ;;
	*) echo "$2 exit $3: $(head -c 200 "$1" | tr '\n' '|')" ;;
	esac
}

say() { [ -z "$verbose" ] || printf '  %s\n' "$*"; }

# run_case SEED: draw case SEED, run it; sets $class (composed, input,
# masked) or $why (what failed).
run_case() {
	s=$1 d="$C/$1" class='' why=''
	rm -rf "$d"
	mkdir -p "$d"
	if ! "$GEN" "$s" "$d" >"$d/recipe"; then
		why="compose-gen failed"
		return
	fi
	pre=''
	. "$d/recipe"
	say "input: $parts ($desc); stages:${pre:+ $pre |} $combo"

	# the input: the parts made, and their expectations joined
	i=0 files='' known=1
	: >"$d/exp"
	for k in $parts; do
		i=$((i + 1))
		p="$d/p$i"
		case $k in
		imp)
			eval "o=\$imp$i"
			say "graph-import -f edgelist -q $o p$i.el > p$i"
			graph-import -f edgelist -q $o "$p.el" >"$p" 2>"$d/err"
			rc=$?
			if [ $rc -ne 0 ]; then
				if [ $rc -eq 1 ] && one_line "$d/err" graph-import; then
					class=input
					say "refused: $(cat "$d/err")"
				else
					why="$(what_failed "$d/err" graph-import $rc) (making the input)"
				fi
				return
			fi ;;
		dcbm)
			eval "a=\$dcbm$i f=\$form$i"
			say "dcbm-gen $a $f > p$i"
			if ! dcbm-gen $a $f >"$p" 2>"$d/err" ||
			   ! dcbm-gen $a -t 2>"$d/err" | awk '/^@graph/ {
				for (i = 2; i <= NF; i++) { split($i, kv, "="); a[kv[1]] = kv[2] }
				print a["id"], a["nodes"], a["edges"] }' >"$p.exp"; then
				why="dcbm-gen $a $f failed: $(head -c 200 "$d/err")"
				return
			fi ;;
		esac
		if [ -f "$p.exp" ]; then cat "$p.exp" >>"$d/exp"; else known=0; fi
		files="$files $p"
	done
	cat $files >"$d/input"
	[ $known -eq 1 ] || : >"$d/exp"

	# the stages, one after the other, each judged by itself
	k=1 src="$d/input" need='' stages=''
	while [ $k -le "$nst" ]; do
		eval "prog=\$prog$k opt=\$opt$k in=\$in$k out=\$out$k"
		o="$d/out$k"
		if [ "$out" = o ]; then oo="-o $o"; else oo=''; fi
		args=$src
		[ $k -gt 1 ] || args=$files	# several parts: several arguments
		case $in in
		file)  cmd="timeout 120 $prog $opt $oo $args" ;;
		dash)  cmd="timeout 120 $prog $opt $oo - <$src" ;;
		stdin) cmd="timeout 120 $prog $opt $oo <$src" ;;
		pipe)  cmd="cat $src | timeout 120 $prog $opt $oo" ;;
		esac
		say "$cmd"
		if [ "$out" = o ]; then
			sh -c "$cmd" >"$d/stdout$k" 2>"$d/err$k"
		else
			sh -c "$cmd" >"$o" 2>"$d/err$k"
		fi
		rc=$?
		say "exit $rc${verbose:+; stderr: $(tr '\n' '|' <"$d/err$k")}"
		if [ $rc -eq 1 ] && one_line "$d/err$k" "$prog"; then
			if [ "$out" = o ] && [ -e "$o" ]; then
				why="$prog failed and left its -o file"
			elif [ "$prog" = mask-edges ] && [ "$masked" = 1 ] &&
			     grep -q 'masked already' "$d/err$k"; then
				class=masked
			elif [ $k -eq 1 ]; then
				class=input
			else
				why="stage $k $prog refused the output of ${stages% | }: $(cat "$d/err$k")"
			fi
			return
		fi
		if [ $rc -ne 0 ]; then
			why="stage $k $(what_failed "$d/err$k" "$prog" $rc)"
			return
		fi
		if [ "$prog" = mask-edges ] && [ "$masked" = 1 ]; then
			why="stage $k mask-edges masked a graph that was masked already"
			return
		fi
		if [ "$out" = o ] && [ -s "$d/stdout$k" ]; then
			why="stage $k $prog -o wrote to stdout too"
			return
		fi
		case $prog in
		centrality) need="$need tensor:centrality" ;;
		mask-edges) need="$need pairs:mask graph:masked"; masked=1 ;;
		nodefeat)   need="$need tensor:features tensor:features_raw" ;;
		esac
		stages="$stages$prog | "
		src=$o
		k=$((k + 1))
	done

	# the final output: read by a third program, then its invariants
	reader=nodefeat
	[ "$prog" != nodefeat ] || reader=centrality
	if ! timeout 120 $reader -q -t "$src" >"$d/final" 2>"$d/err"; then
		why="the reader $reader -t refused the final output: $(head -c 200 "$d/err")"
		return
	fi
	exp=''
	[ ! -s "$d/exp" ] || exp="$d/exp"
	if ! awk -v EXP="$exp" -v NEED="$need" -f "$C/check.awk" "$d/final" >"$d/check"; then
		why="final output: $(head -n 1 "$d/check")"
		return
	fi
	class=composed
}

verbose=''
if [ -n "${COMPOSE_SEED:-}" ]; then
	first=$COMPOSE_SEED n=1 verbose=1
else
	first=${COMPOSE_FIRST:-1}
	if [ -n "${GNN_BIN:-}" ]; then n=${COMPOSE_CASES:-60}; else n=${COMPOSE_CASES:-300}; fi
fi
composed=0 input=0 nx=0 masked_twice=0 failed=0
s=$first
while [ "$s" -lt $((first + n)) ]; do
	run_case "$s"
	[ -z "${COMPOSE_LOG:-}" ] || printf '%s\t%s\t%s\t%s\t%s\n' "$s" "${class:-failed}" \
		"${pre:+$pre; }$combo" "$parts: $desc" "${why:-$(cat "$C/$s/err"* 2>/dev/null | tail -n 1)}" \
		>>"$COMPOSE_LOG"
	if [ -n "$why" ]; then
		why=$(printf '%s\n' "$why" | sed "s|$C/$s/||g")	# the case's files by name
		lib_bad "compose seed $s [${pre:+$pre; }${combo:-?}] on ${parts:-?} (${desc:-}): $why; rerun: COMPOSE_SEED=$s sh tests/cli/run.sh compose"
		failed=$((failed + 1))
	else
		lib_ok
		case $class in
		composed) composed=$((composed + 1)) ;;
		input)
			input=$((input + 1))
			case " $desc " in *" nxdict "*) nx=$((nx + 1)) ;; esac ;;
		masked) masked_twice=$((masked_twice + 1)) ;;
		esac
	fi
	if [ -n "$verbose" ]; then
		rm -rf "$TOP/tests/tmp/compose-$s"
		cp -R "$C/$s" "$TOP/tests/tmp/compose-$s"
		echo "  case $s: ${class:-failed}; its files are in tests/tmp/compose-$s"
	else
		rm -rf "${C:?}/$s"
	fi
	s=$((s + 1))
done
echo "compose: $n case(s) from seed $first: $composed composed, $input refused as input" \
	"($nx of them with networkx's dict column), $masked_twice refused as masked twice," \
	"$failed failed"
