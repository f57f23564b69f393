# man-examples.test.sh - every example of every man page runs and exits 0
# (the .Bd -literal blocks of the EXAMPLES sections), each in a fresh
# directory, so the manual cannot drift from the programs.  The examples
# run with a PATH of gnnpipe's programs and the utilities every system
# has (a minimal Debian: coreutils, grep, sed, awk, gzip, findutils,
# diffutils), so an example that needs anything else (a pager such as
# less, python3...) fails here, naming the program, rather than on a
# user's minimal system.
T="$TMPD/man"
mkdir -p "$T/path"
for p in "$BIN"/*; do
	[ -x "$p" ] && ln -s "$p" "$T/path/"
done
# each as the PATH of the tests finds it (command -v would name builtins)
for u in awk basename cat cmp cp cut date diff dirname echo env expr false find grep gzip \
	head ls mkdir mv od paste printf rm sed seq sh sleep sort tail tee test timeout touch \
	tr true uniq wc xargs; do
	_ifs=$IFS IFS=:
	for d in $PATH; do
		[ -x "$d/$u" ] && { ln -s "$d/$u" "$T/path/$u"; break; }
	done
	IFS=$_ifs
done
for page in "$TOP"/man/man1/*.1 "$TOP"/man/man5/*.5 "$TOP"/man/man7/*.7; do
	name=$(basename "$page")
	awk -v dir="$T" -v name="$name" '
		/^\.Sh EXAMPLES/ { ex = 1; next }
		/^\.Sh / { ex = 0 }
		ex && /^\.Bd -literal/ { k++; f = sprintf("%s/%s.%d.sh", dir, name, k); on = 1; next }
		on && /^\.Ed/ { on = 0; close(f); next }
		on { gsub(/\\e/, "\\"); print > f }
	' "$page"
	for ex in "$T/$name".*.sh; do
		[ -e "$ex" ] || { lib_bad "$name has no EXAMPLES"; continue; }
		d="$ex.d"
		mkdir -p "$d"
		if (cd "$d" && timeout 300 env PATH="$T/path" sh -e "$ex" >out 2>err) &&
			! grep -q ': not found$' "$d/err"; then
			lib_ok
		elif miss=$(sed -n 's/^.*: \([^ :]*\): not found$/\1/p' "$d/err" | head -n 1) && [ -n "$miss" ]; then
			lib_bad "$name example $(basename "$ex") runs '$miss', which is neither a gnnpipe program nor a utility every system has (tests/cli/man-examples.test.sh)"
		else
			lib_bad "$name example $(basename "$ex"): $(head -c 300 "$d/err")"
		fi
		rm -rf "$d"
	done
done
