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
	# python/ as the package gnnpipe, where Debian's python3 imports a
	# package of the prefix from (issue 48): no line printed for
	# /usr/local; the modules there; python3 -I (no PYTHONPATH, no user
	# site, no current directory) finds them from that site directory
	PY=/usr/bin/python3	# Debian's, where python3-numpy installs
	PD=$(sh "$TOP/mk/pydir.sh" /usr/local "$PY")
	check "[ -s $D$PD/gnnpipe/__init__.py ] && [ -s $D$PD/gnnpipe/convert.py ] && [ -s $D$PD/gnnstream.py ] &&
		[ -s $D$PD/gnnpipe_torch.py ] && ! grep -q '^python: ' $T/out" \
		"make install: the package gnnpipe, gnnstream.py and gnnpipe_torch.py in $PD, nothing to add"
	check "$PY -I -c 'import site, sys; sys.exit(\"$PD\" not in site.getsitepackages())'" \
		"make install: Debian's python3 reads $PD"
	# another prefix: the one line to add, and it works
	expect 0 "make -s -C $TOP install DESTDIR=$T/opt PREFIX=/opt/gnnpipe >$T/opt.out 2>$T/opt.err"
	OD=$(sh "$TOP/mk/pydir.sh" /opt/gnnpipe "$PY")
	check "[ \$(wc -l <$T/opt.out) -eq 1 ] && grep -qxF 'python: $PY does not read $OD; to import gnnpipe, add: export PYTHONPATH=$OD\${PYTHONPATH:+:\$PYTHONPATH}' $T/opt.out &&
		[ -s $T/opt$OD/gnnpipe/__init__.py ]" "make install PREFIX=/opt/gnnpipe: one line says what to add to PYTHONPATH"
	if [ -x "$PY" ] && "$PY" -c 'import numpy, networkx' 2>/dev/null; then
		check "cd $T && PYTHONPATH=$T/opt$OD $PY -c 'import gnnpipe, sys; sys.exit(not gnnpipe.__file__.startswith(\"$T/opt/\"))'" \
			"make install PREFIX=/opt/gnnpipe: the line's PYTHONPATH imports gnnpipe"
		# a networkx graph to embeddings and back, with the installed
		# package and programs only (issue 48's "done when")
		cat >"$T/nx.py" <<'EOP'
import site, sys
site.addsitedir(sys.argv[1])
import networkx as nx
import numpy as np
import gnnpipe, gnnstream
assert all(m.__file__.startswith(sys.argv[1]) for m in (gnnpipe, gnnstream)), gnnpipe.__file__
G = nx.relabel_nodes(nx.karate_club_graph(), lambda v: "Zoë %d" % v)
H = gnnpipe.embed(G, as_networkx=True)
assert list(H) == list(G) and all(H.nodes[v]["club"] == G.nodes[v]["club"] for v in G)
E = gnnpipe.embed(G)
assert E.shape == (34, 1536) and (np.stack([H.nodes[v]["embedding"] for v in H]) == E).all()
gnnpipe.write("karate.gs", G)
np.save("karate.py.npy", E)
EOP
		check "cd $T && env -i PATH=$U/bin:/usr/bin:/bin HOME=$T $PY -I nx.py $D$PD &&
			env -i PATH=$U/bin:/usr/bin:/bin $U/bin/gcn-embed -q --npy karate.c.npy karate.gs && cmp -s karate.c.npy karate.py.npy" \
			"installed package: a networkx graph to gcn-embed's rows and back (python3 -I, the installed programs)"
	else
		skip "install: numpy or networkx missing, the installed package is not imported"
	fi
	# the package's pyproject.toml: setuptools builds it offline (no
	# isolation, no download), and the wheel holds what make install put
	if "$PY" -c 'import setuptools.build_meta, wheel' 2>/dev/null; then
		rm -rf "$T/pysrc" && cp -R "$TOP/python" "$T/pysrc" && rm -rf "$T/pysrc/__pycache__" "$T/pysrc/gnnpipe/__pycache__"
		check "cd $T/pysrc && $PY -c 'from setuptools import build_meta as b; print(b.build_wheel(\"$T/whl\"))' >$T/whl.out 2>$T/whl.err &&
			$PY -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1]); got = sorted(n for n in z.namelist() if \".dist-info/\" not in n)
want = [\"gnnpipe/__init__.py\", \"gnnpipe/convert.py\", \"gnnpipe/programs.py\", \"gnnpipe_torch.py\", \"gnnstream.py\"]
sys.exit(got != want and print(got))' $T/whl/\$(tail -n 1 $T/whl.out) &&
			[ \"\$(cd $D$PD && ls gnnpipe/*.py gnnpipe_torch.py gnnstream.py)\" = \"\$(cd $TOP/python && ls gnnpipe/*.py gnnpipe_torch.py gnnstream.py)\" ]" \
			"python/pyproject.toml: setuptools builds the wheel gnnpipe offline, the files make install puts"
	else
		skip "install: no setuptools or wheel for $PY (Debian: python3-setuptools python3-wheel): python/pyproject.toml was not built"
	fi
fi
