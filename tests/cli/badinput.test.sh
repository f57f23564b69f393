# badinput.test.sh - the table-driven bad-input suite (sourced by run.sh
# with lib.sh).  tests/badinput/make-inputs.sh builds the bad inputs from
# good streams made by the programs; each row of tests/badinput/cases.tsv
# runs one program on one of them.  A row passes when
#   - the exit status is the one in the table (1 data, 2 usage; 0 for the
#     documented simplifications of plain edge lists, which warn),
#   - stderr is exactly one line, starting with "prog: ",
#   - that line matches the row's extended regular expression,
#   - with -o (@OUT@), a failed run leaves no output file and nothing else
#     (no temporary file) in the output's directory; a run that succeeds
#     leaves exactly the output file,
#   - it ends within 60 s (a hang fails instead of blocking the suite; a
#     loaded machine is slow, not wrong).
#
# cases.tsv: tab-separated; '#' lines and blank lines are comments.
#   name  command  input  exit  regex
# In command, @IN@ is the input file, @OUT@ the -o file, @B@ the directory
# of the inputs (models, configs).  A command without @IN@ reads the input
# on stdin ('-' as input: no input, stdin is /dev/null).
#
# tests/badinput/known-failures names rows that fail because of bugs in
# files this suite may not change (reported, not fixed): such a row prints
# KNOWN and does not count as a failure; once it passes, it fails until it
# is taken off the list.
BI="$TOP/tests/badinput"
B="$TMPD/badinput"
O="$TMPD/badinput-out"
mkdir -p "$B" "$O"
if ! sh "$BI/make-inputs.sh" "$B" >"$TMPD/badinput.log" 2>&1; then
	lib_bad "make-inputs.sh failed: $(tail -n 3 "$TMPD/badinput.log")"
fi
KNOWN=$(grep -v '^#' "$BI/known-failures" 2>/dev/null | awk '{ print $1 }')

# bi_sub TEXT OUTDIR: the placeholders of a row replaced (@OUT@ is OUTDIR/out)
bi_sub() {
	printf '%s\n' "$1" | sed -e "s|@IN@|$B/$bi_input|g" -e "s|@OUT@|$2/out|g" \
		-e "s|@B@|$B|g"
}

# bi_stdin: a row's standard input, its input file unless the command
# names it (@IN@) or it is '-'
bi_stdin() {
	case $bi_cmd in
	*@IN@*) echo /dev/null ;;
	*) if [ "$bi_input" = - ]; then echo /dev/null; else echo "$B/$bi_input"; fi ;;
	esac
}

bi_rows=0
while IFS='	' read -r bi_name bi_cmd bi_input bi_code bi_re <&3; do
	case $bi_name in '' | '#'*) continue ;; esac
	bi_rows=$((bi_rows + 1))
	bi_why=
	if [ -z "$bi_re" ]; then
		lib_bad "badinput: row '$bi_name' has fewer than 5 fields"
		continue
	fi
	bi_run=$(bi_sub "$bi_cmd" "$O/$bi_name")
	bi_in=$(bi_stdin)
	mkdir -p "$O/$bi_name"
	timeout 60 sh -c "$bi_run" <"$bi_in" >"$O/$bi_name.stdout" 2>"$O/$bi_name.stderr"
	bi_rc=$?
	bi_prog=${bi_cmd%% *}
	bi_err="$O/$bi_name.stderr"
	bi_lines=$(awk 'END { print NR }' "$bi_err")
	if [ "$bi_rc" -eq 124 ] || [ "$bi_rc" -eq 137 ]; then
		bi_why="hangs (killed after 60 s)"
	elif [ "$bi_rc" -ge 128 ]; then
		bi_why="crashes (exit $bi_rc: signal $((bi_rc - 128)))"
	elif [ "$bi_rc" -ne "$bi_code" ]; then
		bi_why="exit $bi_rc, want $bi_code"
	fi
	if [ "$bi_lines" -ne 1 ]; then
		bi_why="${bi_why:+$bi_why; }$bi_lines lines on stderr, want 1"
	elif ! grep -q "^$bi_prog: " "$bi_err"; then
		bi_why="${bi_why:+$bi_why; }stderr does not start with '$bi_prog: '"
	fi
	if ! grep -Eq -- "$bi_re" "$bi_err"; then
		bi_why="${bi_why:+$bi_why; }stderr does not match /$bi_re/"
	fi
	case $bi_cmd in *@OUT@*)
		bi_left=$(ls -A "$O/$bi_name")
		if [ "$bi_code" -ne 0 ] && [ -n "$bi_left" ]; then
			bi_why="${bi_why:+$bi_why; }left behind: $(echo $bi_left)"
		elif [ "$bi_code" -eq 0 ] && [ "$bi_left" != out ]; then
			bi_why="${bi_why:+$bi_why; }output directory holds '$(echo $bi_left)', want 'out'"
		fi
	esac
	bi_known=
	for k in $KNOWN; do [ "$k" = "$bi_name" ] && bi_known=1; done
	if [ -n "$bi_why" ] && [ -n "$bi_known" ]; then
		echo "KNOWN: badinput $bi_name: $bi_why; stderr: $(head -c 300 "$bi_err")"
		lib_ok
	elif [ -n "$bi_why" ]; then
		lib_bad "badinput $bi_name [$bi_run]: $bi_why; stderr: $(head -c 300 "$bi_err")"
	elif [ -n "$bi_known" ]; then
		lib_bad "badinput $bi_name passes now: take it off tests/badinput/known-failures"
	else
		lib_ok
	fi
done 3<"$BI/cases.tsv"
check "[ $bi_rows -ge 80 ]" "badinput: $bi_rows rows in cases.tsv, want 80 or more"

# ---- a failure keeps what the user had: the first failing -o row of each
# program again, with an existing output file that must come out unchanged
bi_done=
while IFS='	' read -r bi_name bi_cmd bi_input bi_code bi_re <&3; do
	case $bi_name in '' | '#'*) continue ;; esac
	case $bi_cmd in *@OUT@*) ;; *) continue ;; esac
	bi_prog=${bi_cmd%% *}
	[ "$bi_code" -ne 0 ] || continue
	case " $bi_done " in *" $bi_prog "*) continue ;; esac
	bi_done="$bi_done $bi_prog"
	d="$O/keep-$bi_name"
	mkdir -p "$d"
	echo old >"$d/out"
	timeout 60 sh -c "$(bi_sub "$bi_cmd" "$d")" <"$(bi_stdin)" >/dev/null 2>&1
	bi_rc=$?
	check "[ $bi_rc -ne 0 ] && [ \"\$(cat $d/out)\" = old ] && [ \"\$(ls -A $d)\" = out ]" \
		"badinput $bi_name: a failed run kept the existing output file unchanged"
done 3<"$BI/cases.tsv"
bi_tools=$(ls "$TOP"/tools/*.c | wc -l)
check "[ \$(echo $bi_done | wc -w) -eq $bi_tools ]" "keep-output checks for all $bi_tools programs (got:$bi_done)"

# ---- fault cases: a reader that goes away, a closed or full stdout ----
# `prog | head -c 10`: a filter whose reader has gone dies of SIGPIPE
# (status 141) without a word, like cat or sort; the output here is large
# enough that it cannot all fit in the pipe before head exits.
dcbm-gen -q -s 1 --count 40 --nodes 200..400 -o "$B/big.gs"
for bi_cmd in "dcbm-gen -q -s 1 --count 40 --nodes 200..400" "mask-edges -q $B/big.gs" \
	"nodefeat -q $B/big.gs" "nodefeat -q --tsv $B/big.gs" "centrality -q -t $B/big.gs"; do
	{ $bi_cmd 2>"$TMPD/pipe.err"; echo $? >"$TMPD/pipe.rc"; } | head -c 10 >/dev/null
	check "[ \"\$(cat $TMPD/pipe.rc)\" -eq 141 ] && [ ! -s $TMPD/pipe.err ]" \
		"[$bi_cmd | head -c 10]: status $(cat "$TMPD/pipe.rc") (want 141, SIGPIPE), stderr '$(head -c 100 "$TMPD/pipe.err")'"
done
# a closed stdout (>&-) and a full one (/dev/full): exit 1, one line
# naming the program and <stdout>, for every program that writes there
for bi_cmd in "dcbm-gen -q -s 1 --count 2 --nodes 30" "mask-edges -q $B/g.gs" \
	"nodefeat -q $B/g.gs" "centrality -q $B/g.gs" "graph-import -f edgelist $B/el.txt" \
	"gcn-train -q -j 1 -s 1 --hidden 8 --epochs 1 --batch 2 --validation 1 $B/lab.gs" \
	"gcn-adapt -q -j 1 -s 1 --head-width 8 --runs 1 --epochs 1 --label cluster --no-pretrain --train-per-class 2 --val 5 --test 5 $B/node.gs" \
	"evalf1 $B/pred.gs" "gcn-embed -q --model $B/model.gs $B/g.gs"; do
	expect_err 1 "$bi_cmd >&-" "<stdout>: Bad file descriptor"
	expect_err 1 "$bi_cmd >/dev/full" "<stdout>"
done
