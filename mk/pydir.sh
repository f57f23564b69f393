#!/bin/sh
# pydir.sh PREFIX [PYTHON]: where `make install` puts python/'s package
# (PYTHONDIR) for PREFIX: the directory Debian's python3 reads packages of
# that prefix from, PREFIX/lib/python3/dist-packages for /usr (Debian's
# own packages') and PREFIX/lib/python3.X/dist-packages elsewhere
# (/usr/local's, X the minor version of PYTHON, default /usr/bin/python3).
# Any other prefix gets the same name; `make install` then prints the
# PYTHONPATH line that makes python3 find it (mk/pyfind.sh).
prefix=$1
py=${2:-/usr/bin/python3}
if [ "$prefix" = /usr ]; then
	echo /usr/lib/python3/dist-packages
	exit 0
fi
v=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || v=3
echo "$prefix/lib/python$v/dist-packages"
