#!/bin/sh
# pyfind.sh DIR [PYTHON]: does PYTHON (default /usr/bin/python3) read
# packages from DIR?  Silent when it does; otherwise prints the one line
# to add to a shell's profile (make install runs it on PYTHONDIR, before
# DESTDIR).  Always exits 0.
dir=$1
py=${2:-/usr/bin/python3}
if [ -x "$py" ] || command -v "$py" >/dev/null 2>&1; then
	"$py" -c 'import site, sys
d = sys.argv[1].rstrip("/")
sys.exit(d not in [p.rstrip("/") for p in site.getsitepackages() + sys.path])' "$dir" 2>/dev/null && exit 0
fi
echo "python: $py does not read $dir; to import gnnpipe, add: export PYTHONPATH=$dir\${PYTHONPATH:+:\$PYTHONPATH}"
exit 0
