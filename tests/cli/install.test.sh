# install.test.sh - `make install` into a staging directory (DESTDIR): the
# programs, their manuals, the shipped model where an installed program
# looks for it (bin/../share/gnnpipe), and python/ where a user's Python
# imports it from.  Nothing outside the staging directory is written.
T="$TMPD/install"
D="$T/stage"
mkdir -p "$T"
if sanitized; then
	skip "install: the tree's own programs, not the sanitizer build's"
else
	expect 0 "make -s -C $TOP install DESTDIR=$D PREFIX=/usr/local >$T/out 2>$T/err" \
		"make install: into DESTDIR"
	U="$D/usr/local"
	n=0
	for p in "$TOP"/bin/*; do
		[ -x "$U/bin/$(basename "$p")" ] || n=$((n + 1))
	done
	check "[ $n -eq 0 ] && [ \$(ls $U/bin | wc -l) -eq \$(ls $TOP/bin | wc -l) ]" \
		"make install: every program in bin/"
	check "[ -s $U/share/man/man1/gcn-embed.1 ] && [ -s $U/share/man/man5/gnnstream.5 ] && \
		[ -s $U/share/man/man7/gnnpipe.7 ]" "make install: the manuals, sections 1, 5 and 7"
	# an installed program finds the shipped model beside it, not the tree's
	check "env -u GNNPIPE_MODEL $U/bin/gcn-embed --tsv $TOP/tests/cli/data/lesmis.el >$T/emb.tsv 2>$T/emb.err && \
		[ \$(sed 1d $T/emb.tsv | wc -l) -eq 77 ] && grep -q 'model: .*/stage/usr/local/share/gnnpipe/gcn-pretrain.gs ' $T/emb.err" \
		"make install: installed gcn-embed runs on the installed model"
	PY=/usr/bin/python3	# Debian's, where python3-numpy installs
	if [ -x "$PY" ] && "$PY" -c 'import numpy' 2>/dev/null; then
		check "cd $T && PYTHONPATH=$U/share/gnnpipe/python $PY -c 'import gnnstream, sys; sys.exit(not gnnstream.__file__.startswith(\"$U/\"))'" \
			"make install: python/ importable from share/gnnpipe/python"
	else
		skip "install: numpy missing, the installed python module is not imported"
	fi
fi
