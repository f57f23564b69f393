#!/bin/sh
# deps.sh - is what a make target needs on this machine?  On any Linux: the
# libraries are checked by compiling and linking a test program with the
# build's own compiler and flags, the tools by looking them up in PATH (no
# package database is asked).  What is missing is installed when run as
# root where apt-get is (Debian); otherwise it is named, with its Debian
# package, and deps.sh fails.
#   sh mk/deps.sh [want] WHAT...
#     build     what the programs need (`make`): make, a C compiler, OpenMP,
#               GSL, zlib, libyaml, OpenBLAS (CBLAS), LAPACKE, ARPACK, LIBLINEAR,
#               igraph (graph-import's graph formats)
#     optional  what the programs use when it is there (`make`, before
#               build): oneDNN (bf16 products, common/gemm.h).  Installed
#               like the others as root where apt-get is; elsewhere named on
#               stderr, and the build goes on without it.  Writes the make
#               variables DNNL_BUILD (the DNNL it was made for),
#               DNNL_CPPFLAGS and DNNL_LDLIBS to the file $OPTIONAL_MK
#               (default build/optional.mk); fails only on misuse.  With
#               DNNL=no (make DNNL=no) oneDNN is left out: nothing is
#               checked or installed, and the programs are fp32 only
#     test      Criterion, the figures' tools and man (`make test`)
#     asan      the compiler's AddressSanitizer and UBSan (`make test-asan`)
#     valgrind  valgrind (`make test-valgrind`)
#     figures   gnuplot (pngcairo, svg) and graphviz (`make -C pipelines fig2`...)
#     bench     /usr/bin/python3 and the peers it imports (`make bench`)
#     fuzz      clang with OpenMP and libFuzzer (`make fuzz`)
#     lint      clang-format (`make lint`, `make format`)
#     numpy     /usr/bin/python3 with numpy: the tests that check a file format
#               or a computation with an independent reader run where it is,
#               and say they are skipped where it is not (.ci/run asks for it);
#               and with torch (python3-torch), for python/gnnpipe_torch.py's
#               test (tests/cli/python.test.sh); with scipy and igraph
#               (tests/cli/formats.test.sh's readers); with networkx
#               (tests/cli/pypkg.test.sh: the package gnnpipe's converters),
#               setuptools and wheel (install.test.sh builds
#               python/pyproject.toml)
#     mpi       Open MPI (mpicc, mpirun): optional; gcn-train is built with it
#               where it is found, and tests/cli/mpi.test.sh runs where it
#               is and says it is skipped where it is not (.ci/run asks for it)
# make passes the flags of the build in the environment: CC, OMPFLAGS,
# CFLAGS, CPPFLAGS, LDFLAGS, LDLIBS (ALLCFLAGS is -std=c11 $OMPFLAGS
# $CFLAGS), and FUZZ_CC, FUZZ_FLAGS, MPICC; run by hand, the Makefile's
# defaults.
# Exit 0 when everything is there (installed if need be), 1 when something
# is missing, 2 on misuse.  Prints nothing when nothing is missing.  With
# want first, what is missing is wanted, not needed: installed as above,
# otherwise named on stderr, and deps.sh exits 0 (`make test` wants numpy
# and mpi: their tests say they are skipped where they are missing).
# The flags are lists of words: split, never globbed.
# shellcheck disable=SC2086,SC2046
set -uf
CC=${CC:-cc}
OMPFLAGS=${OMPFLAGS--fopenmp}
CFLAGS=${CFLAGS--O2 -g -Wall -Wextra}
CPPFLAGS=${CPPFLAGS:-}
LDFLAGS=${LDFLAGS:-}
LDLIBS=${LDLIBS:--lgsl -llapacke -lopenblas -larpack -llinear -lyaml -lz -lm -ligraph}
ASAN_FLAGS=${ASAN_FLAGS:--fsanitize=address,undefined -fno-omit-frame-pointer -g -O1}
FUZZ_CC=${FUZZ_CC:-clang}
FUZZ_FLAGS=${FUZZ_FLAGS:--g -O1 -fsanitize=fuzzer,address,undefined}
MPICC=${MPICC:-mpicc}
PY=/usr/bin/python3	# bench/*.sh run the peers with it

want=""
[ "${1:-}" = want ] && { want=1; shift; }
[ $# -gt 0 ] || set -- build
for w in "$@"; do
	case $w in
	build | optional | test | numpy | mpi | asan | valgrind | figures | bench | fuzz | lint) ;;
	*) echo "usage: sh mk/deps.sh [want] [build|optional|test|numpy|mpi|asan|valgrind|figures|bench|fuzz|lint]..." >&2; exit 2 ;;
	esac
done

T=$(mktemp -d "${TMPDIR:-/tmp}/gnn-deps.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

# cc_try FILE 'FLAGS' ['LIBS']: compile and link (FLAGS with -c: compile)
# the test program $T/FILE as the Makefile's rules do, $CC FLAGS -o OUT
# FILE LIBS; the compiler's messages go to $T/cc.err
cc_try() {
	$CC $2 -o "$T/a.out" "$T/$1" ${3:-} >"$T/cc.err" 2>&1
}

words() {	# the words, one space apart
	echo "$*"
}

# need NAME WHY DEBIAN ELSEWHERE [PKGCONFIG]: NAME is missing
report="" pkgs=""
need() {
	report="${report}deps:   $1: $2 (Debian: $3; elsewhere: $4)
"
	for p in $3; do
		case " $pkgs " in *" $p "*) ;; *) pkgs="$pkgs $p" ;; esac
	done
	if [ -n "${5:-}" ] && command -v pkg-config >/dev/null 2>&1 &&
		pkg-config --exists "$5" 2>/dev/null; then
		# a copy in another prefix that pkg-config knows: its flags
		pf=$(words $(pkg-config --cflags-only-I "$5" 2>/dev/null))
		pl=$(words $(pkg-config --libs-only-L "$5" 2>/dev/null))
		[ -z "$pf$pl" ] ||
			report="${report}deps:     pkg-config finds $5 elsewhere: try CPPFLAGS='$pf' LDFLAGS='$pl' make
"
	fi
}

# ---- the build ----

# the programs' library calls, one per library, linked and never run
cat >"$T/all.c" <<'EOF'
#include <arpack/arpack.h>
#include <cblas.h>
#include <gsl/gsl_rng.h>
#include <lapacke.h>
#include <linear.h>
#include <omp.h>
#include <yaml.h>
#include <zlib.h>
#include <igraph/igraph.h>

typedef void (*fn)(void);
fn volatile used[] = {
	(fn)dsaupd_c, (fn)cblas_sgemm, (fn)gsl_rng_alloc, (fn)LAPACKE_dsyevd_work,
	(fn)omp_get_max_threads, (fn)yaml_parser_initialize, (fn)gzdopen, (fn)train,
	(fn)igraph_read_graph_graphml,
};

int main(int argc, char **argv)
{
	(void)argv;
	return used[argc % 9] == 0;
}
EOF
cat >"$T/omp.c" <<'EOF'
#include <omp.h>

int main(void)
{
	int n = 0;
#pragma omp parallel reduction(+ : n)
	n += omp_get_num_threads() > 0;
	return n == 0;
}
EOF
printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$T/empty.c"

# lib WORD: the library -lWORD's NAME, HEADER, DEBIAN package, package
# ELSEWHERE and PKGCONFIG module
lib() {
	case $1 in
	gsl) set -- GSL gsl/gsl_rng.h libgsl-dev gsl ;;
	lapacke) set -- LAPACKE lapacke.h liblapacke-dev lapacke ;;
	openblas) set -- OpenBLAS cblas.h libopenblas-dev openblas \
		"the OpenBLAS development package, with CBLAS" ;;
	arpack) set -- ARPACK arpack/arpack.h libarpack2-dev arpack "the arpack-ng development package" ;;
	linear) set -- LIBLINEAR linear.h liblinear-dev "" "the LIBLINEAR development package" ;;
	yaml) set -- libyaml yaml.h libyaml-dev yaml-0.1 ;;
	z) set -- zlib zlib.h zlib1g-dev zlib ;;
	m) set -- "the C maths library" math.h libc6-dev "" "the C library's development package" ;;
	igraph) set -- igraph igraph/igraph.h libigraph-dev igraph "the igraph C library's development package (0.10)" ;;
	*) return 1 ;;
	esac
	L_NAME=$1 L_HDR=$2 L_DEB=$3 L_PC=$4 L_ELSE=${5:-"the $1 development package"}
}

check_build() {
	if [ -z "${MAKELEVEL:-}" ] && ! command -v make >/dev/null 2>&1; then
		need make "not in PATH" make "GNU make"
	fi
	cflags="-std=c11 $OMPFLAGS $CFLAGS"
	# the fast path: the whole test program builds as bin/* do
	cc_try all.c "$cflags $CPPFLAGS $LDFLAGS" "$LDLIBS" && return 0
	cc=${CC%% *}
	if ! command -v "$cc" >/dev/null 2>&1 || ! cc_try empty.c ""; then
		need "a C compiler ($CC)" "cannot compile and link an empty program" \
			"gcc libc6-dev" "gcc or clang and the C library's headers"
		return
	fi
	cc_try omp.c "$cflags $CPPFLAGS $LDFLAGS" ||
		need "OpenMP ($OMPFLAGS)" "$CC cannot build an OpenMP program" gcc \
			"the compiler's OpenMP runtime (libgomp for gcc, libomp for clang)"
	# every library the code includes, and every -lWORD the build links;
	# the headers compiled without OpenMP, so that one missing does not
	# hide the others
	words=""
	for w in $LDLIBS; do
		case $w in -l?*) words="$words ${w#-l}" ;; esac
	done
	seen=""
	for w in gsl lapacke openblas arpack linear yaml z $words; do
		case " $seen " in *" $w "*) continue ;; esac
		seen="$seen $w"
		why=""
		if lib "$w"; then
			printf '#include <%s>\n' "$L_HDR" >"$T/h.c"
			cc_try h.c "-c -std=c11 $CFLAGS $CPPFLAGS" || why="no usable <$L_HDR>"
		else
			L_NAME="the library -l$w (LDLIBS)" L_DEB="" L_PC=""
		fi
		case " $LDLIBS " in
		*" -l$w "*)
			# found by the linker (its own dependencies aside)
			cc_try empty.c "$LDFLAGS -Wl,--allow-shlib-undefined" "-l$w" ||
				why="${why:+$why, }-l$w not found by the linker${LDFLAGS:+ (LDFLAGS=$LDFLAGS)}" ;;
		esac
		[ -z "$why" ] && continue
		libs=1
		if [ -n "$L_DEB" ]; then
			need "$L_NAME" "$why" "$L_DEB" "$L_ELSE" "$L_PC"
		else
			report="${report}deps:   $L_NAME: $why
"
		fi
	done
	if [ -z "$report" ]; then
		# each part alone builds, the whole does not: the compiler says why
		cc_try all.c "$cflags $CPPFLAGS $LDFLAGS" "$LDLIBS"
		report="deps:   a test program using every library fails to build:
deps:   $(words $CC $cflags $CPPFLAGS $LDFLAGS -o a.out test.c $LDLIBS)
$(sed 's/^/deps:     /' "$T/cc.err" | head -n 20)
"
	fi
}

# ---- optional libraries ----

# oneDNN's matmul, as common/gemm.c calls it (compiled and linked, never run)
cat >"$T/dnnl.c" <<'EOF'
#include <oneapi/dnnl/dnnl.h>

typedef void (*fn)(void);
fn volatile used[] = { (fn)dnnl_matmul_desc_init, (fn)dnnl_post_ops_append_sum };

int main(int argc, char **argv)
{
	(void)argv;
	return used[argc % 2] == 0;
}
EOF
# linked only into the programs that use it
DNNL_LDLIBS="-Wl,--push-state,--as-needed -ldnnl -Wl,--pop-state"

check_optional() {
	cc_try dnnl.c "-std=c11 $CFLAGS $CPPFLAGS $LDFLAGS" "$DNNL_LDLIBS" ||
		need oneDNN "no usable <oneapi/dnnl/dnnl.h> or -ldnnl; without it the programs have fp32 products only (no --precision bf16)" \
			libdnnl-dev "the oneDNN development package"
}

# optional: install what is missing where we may, never fail; write the
# make variables
optional() {
	out=${OPTIONAL_MK:-build/optional.mk}
	dnnl=${DNNL:-auto}
	case $dnnl in auto | no) ;; *) echo "deps: DNNL=$dnnl: expected auto or no" >&2; exit 2 ;; esac
	case $out in */*) mkdir -p "${out%/*}" || exit 0 ;; esac
	if [ "$dnnl" = no ]; then
		printf '# mk/deps.sh optional: oneDNN left out (DNNL=no)\nDNNL_BUILD = no\nDNNL_CPPFLAGS =\nDNNL_LDLIBS =\n' >"$out"
		exit 0
	fi
	tried=""
	while ! check check_optional; do
		if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
			break
		fi
		case " $tried " in *" $pkgs "*) break ;; esac
		tried="$tried$pkgs"
		echo "deps: installing:$pkgs" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq -o DPkg::Lock::Timeout=600 >&2 || true
		apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 $pkgs >&2 ||
			echo "deps: apt-get install failed" >&2
	done
	if [ -z "$report" ]; then
		printf '# mk/deps.sh optional: oneDNN found\nDNNL_BUILD = auto\nDNNL_CPPFLAGS = -DGNN_DNNL\nDNNL_LDLIBS = %s\n' \
			"$DNNL_LDLIBS" >"$out"
	else
		printf 'deps: optional, missing here (the build goes on without it):\n%s' "$report" >&2
		printf '# mk/deps.sh optional: oneDNN not found\nDNNL_BUILD = auto\nDNNL_CPPFLAGS =\nDNNL_LDLIBS =\n' >"$out"
	fi
	exit 0
}

# ---- what the other targets add ----

tool() {	# tool COMMAND DEBIAN ELSEWHERE
	command -v "$1" >/dev/null 2>&1 || need "$1" "not in PATH" "$2" "$3"
}

check_test() {
	printf '#include <criterion/criterion.h>\n\nTest(deps, ok)\n{\n\tcr_assert(1);\n}\n' >"$T/cr.c"
	cc_try cr.c "-std=c11 $CFLAGS $CPPFLAGS $LDFLAGS" -lcriterion ||
		{ libs=1; need Criterion "no usable <criterion/criterion.h> or -lcriterion" \
			libcriterion-dev "the Criterion development package" criterion; }
	check_figures	# tests/cli/pipelines.test.sh makes every figure
	# docs.test.sh reads a manual as man renders it (a lost escape shows)
	tool man man-db "man (man-db) with groff"
}

check_asan() {
	cc_try empty.c "-std=c11 $ASAN_FLAGS $CPPFLAGS $LDFLAGS" ||
		need "AddressSanitizer and UBSan" "$CC cannot build with $ASAN_FLAGS" gcc \
			"the compiler's sanitizer runtimes (libasan and libubsan)"
}

check_figures() {
	if command -v gnuplot >/dev/null 2>&1; then
		gnuplot -e 'set terminal pngcairo; set terminal svg' </dev/null >/dev/null 2>&1 ||
			need gnuplot "no pngcairo or svg terminal" gnuplot-nox \
				"gnuplot built with cairo"
	else
		need gnuplot "not in PATH" gnuplot-nox "gnuplot built with cairo"
	fi
	gv=""
	for t in sfdp gvpr gvpack neato; do
		command -v $t >/dev/null 2>&1 || gv="$gv $t"
	done
	[ -z "$gv" ] || need graphviz "not in PATH:$gv" graphviz graphviz
}

check_bench() {
	if [ -x "$PY" ]; then
		for m in numpy:python3-numpy scipy:python3-scipy networkx:python3-networkx \
			igraph:python3-igraph graph_tool:python3-graph-tool torch:python3-torch; do
			"$PY" -c "import ${m%%:*}" >/dev/null 2>&1 ||
				need "$PY module ${m%%:*}" "cannot be imported" "${m#*:}" \
					"the Python package ${m%%:*}"
		done
	else
		need "$PY" "not found (the peers run with it)" \
			"python3 python3-numpy python3-scipy python3-networkx python3-igraph python3-graph-tool python3-torch" \
			"Python 3 at $PY with numpy, scipy, networkx, igraph, graph-tool, torch"
	fi
}

check_numpy() {
	if [ ! -x "$PY" ] || ! "$PY" -c 'import numpy' >/dev/null 2>&1; then
		need "$PY module numpy" "cannot be imported" "python3 python3-numpy" \
			"Python 3 at $PY with numpy"
	fi
	if [ ! -x "$PY" ] || ! "$PY" -c 'import torch' >/dev/null 2>&1; then
		need "$PY module torch" "cannot be imported" "python3 python3-torch" \
			"Python 3 at $PY with PyTorch"
	fi
	for m in scipy:python3-scipy igraph:python3-igraph networkx:python3-networkx \
		setuptools.build_meta:python3-setuptools wheel:python3-wheel; do
		[ -x "$PY" ] && "$PY" -c "import ${m%%:*}" >/dev/null 2>&1 ||
			need "$PY module ${m%%:*}" "cannot be imported" "${m#*:}" \
				"the Python package ${m%%:*}"
	done
}

# Open MPI as the Makefile finds it: mpicc, which builds an MPI program
# (libopenmpi-dev), and mpirun (openmpi-bin)
check_mpi() {
	printf '#include <mpi.h>\n\nint main(void)\n{\n\treturn MPI_Init(NULL, NULL);\n}\n' >"$T/mpi.c"
	if ! command -v "${MPICC%% *}" >/dev/null 2>&1 ||
		! $MPICC -o "$T/a.out" "$T/mpi.c" >"$T/cc.err" 2>&1; then
		need "Open MPI" "no $MPICC that builds an MPI program" libopenmpi-dev \
			"the Open MPI development package"
	fi
	tool mpirun openmpi-bin "Open MPI's mpirun"
}

check_fuzz() {
	if ! command -v "${FUZZ_CC%% *}" >/dev/null 2>&1; then
		need "$FUZZ_CC" "not in PATH" "clang libomp-dev libclang-rt-dev" \
			"clang with its OpenMP and libFuzzer runtimes"
		return
	fi
	cc0=$CC
	CC=$FUZZ_CC
	cc_try omp.c "-std=c11 $OMPFLAGS $CPPFLAGS $LDFLAGS" ||
		need "OpenMP for $FUZZ_CC" "$FUZZ_CC cannot build an OpenMP program" \
			libomp-dev "clang's OpenMP runtime (libomp)"
	printf '#include <stddef.h>\n#include <stdint.h>\n\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)\n{\n\treturn (void)d, (int)(n & 0);\n}\n' >"$T/fz.c"
	cc_try fz.c "-std=c11 $FUZZ_FLAGS $CPPFLAGS $LDFLAGS" ||
		need "libFuzzer" "$FUZZ_CC cannot build with $FUZZ_FLAGS" libclang-rt-dev \
			"clang's compiler-rt (libFuzzer and the sanitizers)"
	CC=$cc0
}

check() {
	report="" pkgs="" libs=""
	for w in "$@"; do
		case $w in
		build) check_build ;;
		check_optional) check_optional ;;
		test) check_test ;;
		asan) check_asan ;;
		valgrind) tool valgrind valgrind valgrind ;;
		figures) check_figures ;;
		bench) check_bench ;;
		numpy) check_numpy ;;
		mpi) check_mpi ;;
		fuzz) check_fuzz ;;
		lint) tool clang-format clang-format "clang-format (LLVM), version 14 for the same output" ;;
		esac
	done
	[ -z "$report" ]
}

case " $* " in
*" optional "*) optional ;;
esac

# As root where apt-get is: install what is missing, check again (a
# compiler installed can reveal the libraries missing behind it); never
# the same package twice.
tried="" updated=""
while ! check "$@"; do
	new=""
	for p in $pkgs; do
		case " $tried " in *" $p "*) ;; *) new="$new $p" ;; esac
	done
	if [ -z "$new" ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
		break
	fi
	tried="$tried$new"
	echo "deps: installing:$new" >&2
	export DEBIAN_FRONTEND=noninteractive
	[ -n "$updated" ] || { apt-get update -qq -o DPkg::Lock::Timeout=600 >&2 || true; updated=1; }
	# (another make job's apt-get may hold the lock: wait for it)
	apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 $new >&2 ||
		echo "deps: apt-get install failed" >&2
done
[ -n "$report" ] || exit 0

if [ -n "$want" ]; then
	echo "deps: missing here, wanted for $* (what needs it is skipped):" >&2
else
	echo "deps: missing here, needed for $*:" >&2
fi
printf '%s' "$report" >&2
if [ -n "$pkgs" ]; then
	if [ -n "$tried" ]; then
		echo "deps: still missing after apt-get install:$tried" >&2
	elif command -v apt-get >/dev/null 2>&1; then
		echo "deps: as root: apt-get install$pkgs (or: sh mk/deps.sh $*)" >&2
	else
		echo "deps: install them with the system's package manager (Debian:$pkgs)" >&2
	fi
fi
[ -z "$libs" ] ||
	echo "deps: a library installed in another prefix: CPPFLAGS=-I/prefix/include LDFLAGS=-L/prefix/lib make" >&2
[ -z "$want" ] || exit 0
exit 1
