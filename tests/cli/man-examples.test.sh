# man-examples.test.sh - every example of every man page runs and exits 0
# (the .Bd -literal blocks of the EXAMPLES sections), each in a fresh
# directory, so the manual cannot drift from the programs.
T="$TMPD/man"
mkdir -p "$T"
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
		if (cd "$d" && timeout 300 sh -e "$ex" >out 2>err); then
			lib_ok
		else
			lib_bad "$name example $(basename "$ex"): $(head -c 300 "$d/err")"
		fi
		rm -rf "$d"
	done
done
