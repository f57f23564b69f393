# lib.sh - table helpers for command-line tests (sourced by run.sh).
#
#   expect CODE 'command line' [description]
#       run the command line with sh; its exit status must be CODE.  For a
#       failure (CODE 1 or 2) stderr must be exactly one line that starts with
#       the program name; stdout of a failing command is ignored.
#   expect_err CODE 'command line' 'text'   as expect, and stderr contains text
#   check 'shell condition' description      the condition must hold
#   same FILE1 FILE2 description             the files must be byte-identical
#   run_ok description COMMAND...            COMMAND (its words, no sh) must exit 0;
#                                            a failure shows its output's last lines
#   skip 'FILE: what did not run: why'       says so, once, on a SKIP: line
#   bf16_probe DIR                           is bf16 here? (sets BF16, BF16_WHY)
#   lib_files 'TEXT'                         the state of each file TEXT names
#
# A failure says why without a rerun: the command or condition, its exit
# status, the head of its output, and the state of each scratch file it
# names (run.sh keeps the scratch directory of a file with a failure).
LIB_PASS=0
LIB_FAIL=0
LIB_ERR="$TMPD/stderr.$$"
LIB_CERR="$TMPD/check-stderr.$$"

lib_ok() { LIB_PASS=$((LIB_PASS + 1)); }
lib_bad() { LIB_FAIL=$((LIB_FAIL + 1)); echo "FAIL: $*"; }

# lib_files 'TEXT': for each path under $TMPD in TEXT (at most 10), a line
# with its state: ls -ld, and a directory's entries; or "absent"
lib_files() {
	printf '%s\n' "$1" | grep -o "$TMPD/[^][ 	'\"\`;|&<>(){}\$*?,]*" | sed 's/[.:]*$//' | sort -u | head -n 10 |
		while IFS= read -r _f; do
			if [ -d "$_f" ]; then
				echo "    dir $_f: $(ls -A "$_f" | head -n 30 | tr '\n' ' ')"
			elif [ -e "$_f" ] || [ -L "$_f" ]; then
				echo "    $(ls -ld "$_f" 2>&1)"
			else
				echo "    absent: $_f"
			fi
		done
}

lib_size() { if [ -f "$1" ]; then wc -c <"$1"; else echo -; fi; }

expect() {
	_code=$1 _cmd=$2
	sh -c "$_cmd" >"$TMPD/stdout.$$" 2>"$LIB_ERR"
	_rc=$?
	if [ "$_rc" -ne "$_code" ]; then
		lib_bad "[$_cmd] exit $_rc, want $_code; stderr: $(head -c 300 "$LIB_ERR")"
		[ ! -s "$TMPD/stdout.$$" ] || echo "    stdout: $(head -c 300 "$TMPD/stdout.$$")"
		lib_files "$_cmd"
		return 1
	fi
	if [ "$_code" -ne 0 ]; then
		_n=$(wc -l <"$LIB_ERR")
		_prog=${_cmd%% *}
		_prog=${_prog##*/}
		if [ "$_n" -ne 1 ] || ! grep -q "^$_prog: " "$LIB_ERR"; then
			case "$_cmd" in *'|'*) ;; *)
				lib_bad "[$_cmd] want one 'prog: ...' line on stderr, got $_n: $(head -c 300 "$LIB_ERR")"
				return 1 ;;
			esac
		fi
	fi
	lib_ok
}

expect_err() {
	expect "$1" "$2" || return 1
	if ! grep -qF -- "$3" "$LIB_ERR"; then
		LIB_PASS=$((LIB_PASS - 1))
		lib_bad "[$2] stderr lacks '$3': $(head -c 300 "$LIB_ERR")"
		return 1
	fi
}

check() {
	if sh -c "$1" 2>"$LIB_CERR"; then
		lib_ok
	else
		_rc=$?
		lib_bad "$2 [$1]"
		echo "    exit $_rc$([ ! -s "$LIB_CERR" ] || printf '; stderr: %s' "$(head -c 300 "$LIB_CERR")")"
		lib_files "$1"
	fi
}

same() {
	if cmp -s "$1" "$2"; then
		lib_ok
	else
		lib_bad "$3: $1 and $2 differ"
		echo "    $(cmp "$1" "$2" 2>&1 | head -n 1); sizes $(lib_size "$1") and $(lib_size "$2") bytes"
		lib_files "$1 $2"
	fi
}

run_ok() {
	_d=$1
	shift
	if _o=$("$@" 2>&1); then lib_ok; else lib_bad "$_d: $(echo "$_o" | tail -n 3)"; fi
}

lib_summary() { echo "LIB_SUMMARY $LIB_PASS $LIB_FAIL"; }

skip() { echo "SKIP: $*"; }

# sanitized: are the programs under test the ASan build (make test-asan
# runs them with ASAN_OPTIONS set)?  Its shadow memory and its time are
# not what a check of peak memory or a long training expects.
sanitized() { [ -n "${ASAN_OPTIONS:-}" ]; }

# bf16_probe DIR: do the programs multiply in bf16 here?  Asks gcn-train
# (--precision bf16 on a tiny input, its files in DIR): BF16=1 when it
# runs, else BF16=0 and BF16_WHY its one line ("bf16 is not available:
# ...") for the caller's skip line.  Where the CPU has bf16 matrix
# instructions (mk/cpu-bf16.sh) and the build has oneDNN, bf16 missing
# is a failure, not a skip, so that a skip cannot hide a broken gemm.c;
# so is any other answer than those two.
bf16_probe() {
	BF16=0 BF16_WHY=""
	dcbm-gen -q -s 1 --count 2 --nodes 20..30 -o "$1/bf16-probe.gs" || { lib_bad "bf16_probe: dcbm-gen"; return; }
	if gcn-train -q -j 1 --tasks cluster --hidden 8 --epochs 1 --batch 1 --validation 1 --precision bf16 \
		"$1/bf16-probe.gs" >/dev/null 2>"$1/bf16-probe.err"; then
		BF16=1
	elif [ "$(wc -l <"$1/bf16-probe.err")" -eq 1 ] && grep -q '^gcn-train: .*bf16 is not available: ' "$1/bf16-probe.err"; then
		BF16_WHY=$(sed 's/^gcn-train: --precision bf16: //' "$1/bf16-probe.err")
		if sh "$TOP/mk/cpu-bf16.sh" >/dev/null &&
			grep -q '^DNNL_CPPFLAGS = -DGNN_DNNL' "$TOP/build/optional.mk" 2>/dev/null; then
			lib_bad "bf16 is not available, but this CPU has bf16 matrix instructions and the build has oneDNN: $BF16_WHY"
		fi
	else
		lib_bad "bf16_probe: gcn-train --precision bf16 neither ran nor said bf16 is not available: $(head -c 300 "$1/bf16-probe.err")"
	fi
}
