# lib.sh - table helpers for command-line tests (sourced by run.sh).
#
#   expect CODE 'command line' [description]
#       run the command line with sh; its exit status must be CODE.  For a
#       failure (CODE 1 or 2) stderr must be exactly one line that starts with
#       the program name; stdout of a failing command is ignored.
#   expect_err CODE 'command line' 'text'   as expect, and stderr contains text
#   check 'shell condition' description      the condition must hold
#   same FILE1 FILE2 description             the files must be byte-identical
LIB_PASS=0
LIB_FAIL=0
LIB_ERR="$TMPD/stderr.$$"

lib_ok() { LIB_PASS=$((LIB_PASS + 1)); }
lib_bad() { LIB_FAIL=$((LIB_FAIL + 1)); echo "FAIL: $*"; }

expect() {
	_code=$1 _cmd=$2
	sh -c "$_cmd" >"$TMPD/stdout.$$" 2>"$LIB_ERR"
	_rc=$?
	if [ "$_rc" -ne "$_code" ]; then
		lib_bad "[$_cmd] exit $_rc, want $_code; stderr: $(head -c 300 "$LIB_ERR")"
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
	if sh -c "$1"; then lib_ok; else lib_bad "$2 [$1]"; fi
}

same() {
	if cmp -s "$1" "$2"; then lib_ok; else lib_bad "$3: $1 and $2 differ"; fi
}

lib_summary() { echo "LIB_SUMMARY $LIB_PASS $LIB_FAIL"; }
