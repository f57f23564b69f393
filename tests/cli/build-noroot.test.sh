# build-noroot.test.sh - `make` by a user who is not root, on a Linux
# without dpkg, dpkg-query or apt-get (issue 29).  A PATH that holds only
# the tools the build needs, and an `id` that says uid 1000; a fresh copy
# of the sources.  With the libraries there, the programs build and run;
# with one missing (its header shadowed by one that does not compile),
# make stops naming it and installs nothing; as root where apt-get is, it
# asks apt-get for the library's package.  Sourced by run.sh with lib.sh.
T="$TMPD/noroot"
S="$T/src"
mkdir -p "$T/shim" "$T/hide" "$T/tmp" "$S"

# the shim: the compiler's and make's tools and those of mk/deps.sh, and
# nothing else (no dpkg, dpkg-query, apt-get, sudo, pkg-config, valgrind,
# gnuplot)
for t in sh make cc as ld ar cat rm mkdir mktemp touch sed head; do
	p=$(command -v "$t") && ln -s "$p" "$T/shim/$t"
done
printf '#!/bin/sh\n[ "$1" = -u ] && { echo %s; exit 0; }\nexec %s "$@"\n' 1000 "$(command -v id)" >"$T/shim/id"
chmod +x "$T/shim/id"
# a fake apt-get that only logs its calls, in a second PATH (and a third
# one, where id says root)
mkdir -p "$T/apt" "$T/aptroot"
printf '#!/bin/sh\necho "$*" >>%s/apt.log\n' "$T" >"$T/apt/apt-get"
chmod +x "$T/apt/apt-get"
cp "$T/apt/apt-get" "$T/aptroot/apt-get"
printf '#!/bin/sh\n[ "$1" = -u ] && { echo 0; exit 0; }\nexec %s "$@"\n' "$(command -v id)" >"$T/aptroot/id"
chmod +x "$T/aptroot/id"
# libyaml "missing": a yaml.h that does not compile, before the real one
echo '#error "libyaml is not installed here"' >"$T/hide/yaml.h"

# the sources, without anything built
cp -R "$TOP/Makefile" "$TOP/mk" "$TOP/common" "$TOP/tools" "$S/"
rm -f "$S"/common/*.o "$S/libcommon.a" "$S/.deps-ok"
# make as that user: a clean environment (no MAKEFLAGS from a make test)
E="env -i HOME=$T TMPDIR=$T/tmp PATH=$T/shim"
M="make --no-print-directory -C $S"

check "! env -i PATH=$T/shim sh -c 'command -v dpkg || command -v dpkg-query || command -v apt-get || command -v sudo' >/dev/null &&
	[ \"\$(env -i PATH=$T/shim id -u)\" = 1000 ]" "(the shim: no dpkg, dpkg-query, apt-get or sudo; id -u says 1000)"
check "$E $M -j2 >$T/make.out 2>&1" "make builds as a non-root user without dpkg or apt-get"
check "! grep -q '^deps:' $T/make.out" "and the check says nothing when nothing is missing"
check "[ \$(ls $S/bin | wc -l) -eq \$(ls $TOP/tools/*.c | wc -l) ] && $S/bin/nodefeat --version >$T/v.out && grep -q nodefeat $T/v.out" \
	"every program is built, and runs"
check "$E $M -q all" "the check's stamp: a second make has nothing to do"

# a library missing: make stops before compiling, names it (its Debian
# package and a hint for other systems), rebuilds nothing, installs nothing
touch "$T/before"
sleep 1
check "! $E CPPFLAGS=-I$T/hide $M >$T/miss.out 2>&1" "libyaml missing: make fails"
check "grep -q '^deps:   libyaml: .*(Debian: libyaml-dev; elsewhere: the libyaml development package)' $T/miss.out &&
	! grep -q 'installing' $T/miss.out && ! grep -q '^cc ' $T/miss.out" \
	"and names the library, its Debian package and a hint for elsewhere; nothing compiled, nothing installed"
check "[ -z \"\$(find $S -newer $T/before -name '*.o' -o -newer $T/before -name '*.a' -o -newer $T/before -path '*/bin/*')\" ]" \
	"nothing built is remade by a failed check"
# not root, apt-get there: it is named, not run
check "! env CPPFLAGS=-I$T/hide PATH=$T/apt:$T/shim sh -c 'cd $S && sh mk/deps.sh build' >$T/apt.out 2>&1 &&
	[ ! -e $T/apt.log ] && grep -q '^deps: as root: apt-get install libyaml-dev' $T/apt.out" \
	"not root: apt-get is not run, its command line is printed"
# root, apt-get there: it is asked for the package; still missing, named
check "! env CPPFLAGS=-I$T/hide PATH=$T/aptroot:$T/shim sh -c 'cd $S && sh mk/deps.sh build' >$T/root.out 2>&1 &&
	grep -q '^install .* libyaml-dev\$' $T/apt.log && grep -q '^deps: still missing after apt-get install: libyaml-dev' $T/root.out" \
	"root where apt-get is: it installs libyaml-dev, and says so when that did not help"
# an unknown library in LDLIBS is named too
check "! $E LDLIBS='-lgsl -llapacke -lopenblas -larpack -lyaml -lz -lm -lnosuchlib' $M >$T/ld.out 2>&1 &&
	grep -q '^deps:   the library -lnosuchlib (LDLIBS): -lnosuchlib not found by the linker' $T/ld.out" \
	"a -l of LDLIBS the linker does not find is named"
check "$E $M -q all" "a failed check leaves the stamp of the last good one"

# root where apt-get is, and the install helps (a fake apt-get that
# "installs" libyaml-dev by removing the shadowing header): make goes on
mkdir -p "$T/aptfix" "$T/hide2"
cp "$T/hide/yaml.h" "$T/hide2/"
printf '#!/bin/sh\necho "$*" >>%s/aptfix.log\ncase " $* " in *" libyaml-dev "*) rm -f %s/hide2/yaml.h ;; esac\n' \
	"$T" "$T" >"$T/aptfix/apt-get"
chmod +x "$T/aptfix/apt-get"
cp "$T/aptroot/id" "$T/aptfix/id"
check "env -i HOME=$T TMPDIR=$T/tmp PATH=$T/aptfix:$T/shim CPPFLAGS=-I$T/hide2 $M >$T/fix.out 2>&1 &&
	grep -q '^install .* libyaml-dev\$' $T/aptfix.log && grep -q '^deps: installing: libyaml-dev\$' $T/fix.out &&
	[ \$(grep -c '^deps:' $T/fix.out) = 1 ]" \
	"root where apt-get is: make installs what is missing and goes on"

# what other targets need is checked by them, not by make
check "! $E $M test-valgrind >$T/vg.out 2>&1 && grep -q '^deps:   valgrind: not in PATH (Debian: valgrind' $T/vg.out" \
	"make test-valgrind names valgrind"
check "! env -i PATH=$T/shim sh -c 'cd $S && sh mk/deps.sh figures' >$T/fig.out 2>&1 &&
	grep -q '^deps:   gnuplot: .*(Debian: gnuplot-nox' $T/fig.out && grep -q '^deps:   graphviz: not in PATH: sfdp gvpr gvpack neato (Debian: graphviz' $T/fig.out" \
	"the figures' check names gnuplot and graphviz"

# make test wants what some tests use (numpy, Open MPI) before it builds:
# installed as root where apt-get is, named otherwise, never a failure
# (those tests say they are skipped)
rm -f "$T/apt.log"
check "env -i PATH=$T/apt:$T/shim MPICC=no-mpicc sh -c 'cd $S && sh mk/deps.sh want mpi' >$T/want.out 2>&1 &&
	[ ! -e $T/apt.log ] && grep -q '^deps: missing here, wanted for mpi (what needs it is skipped):' $T/want.out &&
	grep -q '^deps:   Open MPI: no no-mpicc that builds an MPI program (Debian: libopenmpi-dev' $T/want.out" \
	"deps.sh want: not root, Open MPI missing: named, exit 0"
rm -f "$T/apt.log"
check "env -i PATH=$T/aptroot:$T/shim MPICC=no-mpicc sh -c 'cd $S && sh mk/deps.sh want mpi' >$T/wantr.out 2>&1 &&
	grep -q '^install .* libopenmpi-dev openmpi-bin\$' $T/apt.log" \
	"deps.sh want: root where apt-get is: installs Open MPI, exit 0 when that did not help"
touch "$S/tools/nodefeat.c"
$E $M -n test >"$T/test-n.out" 2>&1	# (fails later: the copy has no tests/)
check "awk '/mk\/deps.sh want numpy mpi/ && !w { w = NR } /^cc .* -o bin\// && !c { c = NR }
		END { exit !(w && c && w < c) }' $T/test-n.out" \
	"make test installs numpy and Open MPI (as root) before it builds"

# make DNNL=no: the programs without oneDNN where it is installed (what a
# machine without it gets); a plain make afterwards puts it back
if grep -q '^DNNL_CPPFLAGS = -DGNN_DNNL' "$S/build/optional.mk"; then
	check "$E $M -j2 DNNL=no >$T/nodnnl.out 2>&1 && grep -q '^DNNL_BUILD = no' $S/build/optional.mk &&
		! ldd $S/bin/gcn-train | grep -q dnnl &&
		$S/bin/gcn-train --precision bf16 /dev/null 2>&1 | grep -q 'bf16 is not available: built without oneDNN'" \
		"make DNNL=no builds the programs without oneDNN"
	check "$E $M -j2 >$T/dnnl.out 2>&1 && grep -q '^DNNL_BUILD = auto' $S/build/optional.mk &&
		ldd $S/bin/gcn-train | grep -q dnnl" "a plain make afterwards builds them with oneDNN again"
	check "! $E $M DNNL=yes >$T/dnnl-bad.out 2>&1 && grep -q 'DNNL=yes: expected auto or no' $T/dnnl-bad.out" \
		"DNNL=yes: a usage error"
else
	skip "build-noroot.test.sh: make DNNL=no against a build with oneDNN: $(sed -n 1p "$S/build/optional.mk")"
fi
