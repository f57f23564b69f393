# gnnpipe - one top-level build.
#   make            build libcommon.a and every program into bin/
#   make test       unit tests (Criterion) + command-line tests (CLI="precision infer":
#                   only those of tests/cli)
#   make test-stress make test under load, two at once, STRESS_RUNS times (mk/stress.sh)
#   make run        the shipped model's features against random values and a
#                   hand-made set (linear probe, Cora and ba-shapes), and embeddings
#   make run-adapt  the paper's fine-tuning on Cora against random values (12 min)
#   make smoke      a few minutes' pre-training and adaptation (a smoke test)
#   make bench      speed against networkx / igraph / graph-tool (writes bench/out/results.md);
#                   SECTIONS="gcn_step dcbm" runs only those sections
#   make lint       every C file in the one style of .clang-format (make format rewrites),
#                   every exported name with its file's prefix (mk/prefix.sh)
#   make install PREFIX=/usr/local (DESTDIR stages; PYTHONDIR: python/'s package)
.SUFFIXES:

PREFIX    ?= /usr/local
MANPREFIX ?= $(PREFIX)/share/man
# where Debian's python3 reads a package of PREFIX from (mk/pydir.sh)
PYTHON    ?= /usr/bin/python3
PYTHONDIR ?= $(shell sh mk/pydir.sh '$(PREFIX)' '$(PYTHON)')
CC        ?= cc
CFLAGS    ?= -O2 -g -Wall -Wextra
OMPFLAGS  ?= -fopenmp
CPPFLAGS  += -iquote common -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
# The checkout's path is left out of the debug information, so the same
# sources build the same bytes wherever they are checked out (the pipelines'
# saved runs are stamped with the programs' SHA-256: pipelines/carry.sh).
ALLCFLAGS  = -std=c11 $(OMPFLAGS) $(CFLAGS) -ffile-prefix-map=$(CURDIR)=.
# Every compile writes what it read beside its output (X.o: X.d), every
# link of a program or test in build/dep/ (bin/P: build/dep/bin/P.d, so
# that bin/ and tests/bin/ hold programs only): the headers each target depends on, read back below, so that a
# changed header rebuilds the objects that include it and no others.  -MP
# adds an empty rule for each header, so that a header removed later does
# not stop the build.
DEPFLAGS   = -MMD -MP
# GSL takes its CBLAS from OpenBLAS (not -lgslcblas); LAPACKE runs on OpenBLAS.
# LIBLINEAR is linprobe's classifier (the linker keeps it out of the others).
# igraph (libigraph-dev) reads graph-import's graph formats; its headers are
# included as <igraph/igraph.h>, so no -I is needed.
LDLIBS    ?= -lgsl -llapacke -lopenblas -larpack -llinear -lyaml -lz -lm -ligraph
LDFLAGS   ?=

# Optional libraries, found (and installed as root where apt-get is) by
# mk/deps.sh optional, which writes build/optional.mk: oneDNN for the bf16
# products of common/gemm.c (DNNL_CPPFLAGS -DGNN_DNNL, DNNL_LDLIBS -ldnnl,
# linked as needed), or nothing, and the programs compute in fp32 only.
# make makes the file first (again when mk/deps.sh or DNNL changes) and
# reads it.  DNNL=no builds without oneDNN even where it is installed: the
# programs a machine without it gets (.ci/run tests them so).
DNNL      ?= auto
ifeq ($(filter auto no,$(DNNL)),)
$(error DNNL=$(DNNL): expected auto or no)
endif
-include build/optional.mk
ifneq ($(DNNL_BUILD),$(DNNL))
build/optional.mk: FORCE
endif
LDLIBS    += $(DNNL_LDLIBS)

# The memory-bound loops around the products have versions for AVX-512,
# AVX2 and the baseline x86-64, and a program runs the CPU's best
# (GEMM_CLONES in common/gemm.h; GNN_MAX_CPU_ISA=avx2 or default holds it
# lower); rwse.c's kernel has the same three (target_clones).  CLONES=no
# builds the baseline alone, as another architecture or compiler gets it:
# the portable build (.ci/run tests it so).  CLONED_SRC: the sources with
# versions, built again when CLONES changes (build/clones-flags keeps it).
CLONES    ?= auto
ifeq ($(filter auto no,$(CLONES)),)
$(error CLONES=$(CLONES): expected auto or no)
endif
CLONES_CPPFLAGS = $(if $(filter no,$(CLONES)),-DGNN_NO_CLONES)
CLONED_SRC = common/gemm.c common/nn.c common/rwse.c

COMMON_SRC = $(sort $(wildcard common/*.c))
COMMON_OBJ = $(COMMON_SRC:.c=.o)
TOOL_SRC   = $(sort $(wildcard tools/*.c))
TOOLS      = $(patsubst tools/%.c,bin/%,$(TOOL_SRC))
UNIT_SRC   = $(sort $(wildcard tests/unit/test_*.c))
UNITS      = $(patsubst tests/unit/%.c,tests/bin/%,$(UNIT_SRC))
MAN1       = $(wildcard man/man1/*.1)
MAN5       = $(wildcard man/man5/*.5)
MAN7       = $(wildcard man/man7/*.7)

all: .deps-ok $(TOOLS)

# What the build needs is checked first, by a test program compiled and
# linked with the flags below (mk/deps.sh build: as root where apt-get is,
# it installs what is missing; otherwise it names it and stops the build).
# The stamp .deps-ok holds the compiler and flags that passed; others check
# again.  Objects only wait for it (order-only): a check never rebuilds.
DEPS_ENV = CC='$(CC)' OMPFLAGS='$(OMPFLAGS)' CFLAGS='$(CFLAGS)' CPPFLAGS='$(CPPFLAGS)' \
	   LDFLAGS='$(LDFLAGS)' LDLIBS='$(LDLIBS)'
DEPS     = $(DEPS_ENV) sh mk/deps.sh
DEPS_KEY = $(strip $(CC) $(ALLCFLAGS) $(CPPFLAGS) $(LDFLAGS) $(LDLIBS))
ifneq ($(strip $(shell cat .deps-ok 2>/dev/null)),$(DEPS_KEY))
.deps-ok: FORCE
endif
.deps-ok: mk/deps.sh
	@$(DEPS) build
	@echo '$(DEPS_KEY)' >$@
FORCE:
build/optional.mk: mk/deps.sh
	@$(DEPS_ENV) DNNL='$(DNNL)' OPTIONAL_MK='$@' sh mk/deps.sh optional
ifneq ($(strip $(shell cat build/clones-flags 2>/dev/null)),$(CLONES))
build/clones-flags: FORCE
endif
build/clones-flags:
	@mkdir -p build
	@echo '$(CLONES)' >$@

# What a target needs beyond the build, checked each time it runs: the
# unit tests' Criterion and the figures' tools (make test runs the
# pipelines); test-valgrind, bench and fuzz check theirs below.  Each
# check waits for the build's, so that two never run apt-get at once.
deps-test: | .deps-ok
	@$(DEPS) test
$(UNITS): | deps-test

# A target whose .d is missing (built before the .d files were, or the .d
# removed) is built again: the empty rule makes a missing .d count as new.
# (The rules that name a .d list their targets, as static pattern rules:
# a .d only a plain pattern rule names would be an intermediate file,
# which make does not miss.)
$(COMMON_OBJ): common/%.o: common/%.c common/%.d | .deps-ok
	$(CC) $(ALLCFLAGS) $(OPTFLAGS) $(CPPFLAGS) $(CLONES_CPPFLAGS) $(DEPFLAGS) -c -o $@ $<
%.d: ;

# The layers' loops are memory-bound element-wise passes over N x d arrays
# that may alias; -O2's cheap vectoriser leaves them scalar, -O3 vectorises
# them with alias checks (an 18% shorter training step, measured).  The
# same for head.o: the link decoder's per-edge gathers and scatters.
# -fno-trapping-math lets it turn the compares and divisions of a select
# (tanh's clamps, bf16's NaN test) into vector selects instead of leaving
# the loop scalar; it changes no value, only what may raise a floating-point
# exception flag, which nothing here reads (tanh 5x faster, measured).
# -fno-math-errno lets sqrt() be the instruction alone, without the call
# that would set errno for a negative argument, so that Adam's loop
# vectorises; square roots are correctly rounded either way, and nothing
# here reads errno.
VECFLAGS = -O3 -fno-trapping-math -fno-math-errno
common/nn.o common/head.o: OPTFLAGS = $(VECFLAGS)
# gemm.c calls oneDNN when build/optional.mk found it
common/gemm.o: OPTFLAGS = $(VECFLAGS) $(DNNL_CPPFLAGS)
common/gemm.o: build/optional.mk

# tree_rules TREE,OBJDIR,CC CFLAGS,ORDER[,NOT]: the link rules of one tree, the
# normal one (TREE empty, OBJDIR build) or the ASan one (mk/sanitize.mk:
# TREE $(ASAN_DIR)/, OBJDIR $(ASAN_DIR)), each against the tree's
# libcommon.a: the programs (TREEbin/), the unit tests and the fuzz
# harnesses' replays (TREEtests/bin/).  The gradient tests (test_nn) build
# the model code in double precision, into OBJDIR/double/, one object a
# source so that each has its .d, and so do the tests of a step cut into
# graphs (test_dist: with common/dist.c, no MPI).  The replays' main
# (tests/fuzz/replay.c) is OBJDIR/replay.o.  ORDER: what the objects wait
# for (the dependency checks); NOT: programs linked by a rule of their own.
NN_DOUBLE_SRC = common/nn.c common/model.c common/objhead.c common/batch.c common/modelio.c common/head.c
NN_DOUBLE_UNITS = test_nn test_dist
# CLONED_OBJ_IN OBJDIR,TREE: a tree's objects with versions (CLONES above)
CLONED_OBJ_IN = $(patsubst common/%.c,$(2)common/%.o,$(CLONED_SRC)) \
	$(patsubst common/%.c,$(1)/double/%.o,$(filter $(NN_DOUBLE_SRC),$(CLONED_SRC)))
$(call CLONED_OBJ_IN,build,): build/clones-flags
define tree_rules
$(filter-out $(5),$(TOOL_SRC:tools/%.c=$(1)bin/%)): $(1)bin/%: tools/%.c build/dep/$(1)bin/%.d $(1)libcommon.a
	@mkdir -p $(1)bin build/dep/$(1)bin
	$(3) $$(CPPFLAGS) $$(DEPFLAGS) -MF build/dep/$$@.d $$(LDFLAGS) -o $$@ $$< $(1)libcommon.a $$(LDLIBS)

$(filter-out $(NN_DOUBLE_UNITS:%=$(1)tests/bin/%),$(UNIT_SRC:tests/unit/%.c=$(1)tests/bin/%)): \
		$(1)tests/bin/%: tests/unit/%.c build/dep/$(1)tests/bin/%.d $(1)libcommon.a
	@mkdir -p $(1)tests/bin build/dep/$(1)tests/bin
	$(3) $$(CPPFLAGS) $$(DEPFLAGS) -MF build/dep/$$@.d $$(LDFLAGS) -o $$@ $$< $(1)libcommon.a -lcriterion $$(LDLIBS)

$(patsubst common/%.c,$(2)/double/%.o,$(NN_DOUBLE_SRC) common/dist.c): $(2)/double/%.o: common/%.c \
		$(2)/double/%.d | $(4)
	@mkdir -p $(2)/double
	$(3) $$(CPPFLAGS) $$(CLONES_CPPFLAGS) -DNN_DOUBLE $$(DEPFLAGS) -c -o $$@ $$<

$(1)tests/bin/test_nn: $(NN_DOUBLE_SRC:common/%.c=$(2)/double/%.o)
$(1)tests/bin/test_dist: $(NN_DOUBLE_SRC:common/%.c=$(2)/double/%.o) $(2)/double/dist.o
$(NN_DOUBLE_UNITS:%=$(1)tests/bin/%): $(1)tests/bin/%: tests/unit/%.c build/dep/$(1)tests/bin/%.d $(1)libcommon.a
	@mkdir -p $(1)tests/bin build/dep/$(1)tests/bin
	$(3) $$(CPPFLAGS) -DNN_DOUBLE $$(DEPFLAGS) -MF build/dep/$$@.d $$(LDFLAGS) -o $$@ $$< $$(filter %.o,$$^) \
		$(1)libcommon.a -lcriterion $$(LDLIBS)

$(2)/replay.o: tests/fuzz/replay.c $(2)/replay.d | $(4)
	@mkdir -p $(2)
	$(3) $$(CPPFLAGS) $$(DEPFLAGS) -c -o $$@ $$<

$(patsubst tests/fuzz/fuzz_%.c,$(1)tests/bin/replay_%,$(wildcard tests/fuzz/fuzz_*.c)): \
		$(1)tests/bin/replay_%: tests/fuzz/fuzz_%.c build/dep/$(1)tests/bin/replay_%.d $(2)/replay.o $(1)libcommon.a
	@mkdir -p $(1)tests/bin build/dep/$(1)tests/bin
	$(3) $$(CPPFLAGS) $$(DEPFLAGS) -MF build/dep/$$@.d $$(LDFLAGS) -o $$@ $$< $(2)/replay.o $(1)libcommon.a $$(LDLIBS)
endef

libcommon.a: $(COMMON_OBJ)
	rm -f $@
	ar rcs $@ $(COMMON_OBJ)

# MPI (optional): gcn-train is built with Open MPI where it is found
# (mpicc in PATH, or pkg-config's ompi-c), without it otherwise; MPI=no
# builds without it anyway.  Only common/dist.c differs: built again with
# -DGNN_MPI into build/dist-mpi.o, which gcn-train links before
# libcommon.a (whose dist.o is the build without MPI).  build/mpi-flags
# keeps the flags used, so that MPI installed or removed later rebuilds.
MPI       ?= auto
MPICC     ?= mpicc
ifneq ($(MPI),no)
MPI_CFLAGS ?= $(shell $(MPICC) -showme:compile 2>/dev/null || pkg-config --cflags ompi-c 2>/dev/null)
MPI_LIBS   ?= $(shell $(MPICC) -showme:link 2>/dev/null || pkg-config --libs ompi-c 2>/dev/null)
endif
MPI_KEY    = $(strip $(MPI_CFLAGS) | $(MPI_LIBS))
ifneq ($(strip $(shell cat build/mpi-flags 2>/dev/null)),$(MPI_KEY))
build/mpi-flags: FORCE
endif
build/mpi-flags:
	@mkdir -p build
	@echo '$(MPI_KEY)' >$@

ifneq ($(strip $(MPI_LIBS)),)
build/dist-mpi.o: common/dist.c build/dist-mpi.d build/mpi-flags | .deps-ok
	$(CC) $(ALLCFLAGS) $(CPPFLAGS) $(MPI_CFLAGS) -DGNN_MPI $(DEPFLAGS) -c -o $@ common/dist.c

bin/gcn-train: tools/gcn-train.c build/dep/bin/gcn-train.d build/dist-mpi.o libcommon.a build/mpi-flags
	@mkdir -p bin build/dep/bin
	$(CC) $(ALLCFLAGS) $(CPPFLAGS) $(DEPFLAGS) -MF build/dep/$@.d $(LDFLAGS) -o $@ $< build/dist-mpi.o libcommon.a \
		$(LDLIBS) $(MPI_LIBS)
MPI_TOOLS  = bin/gcn-train
else
bin/gcn-train: build/mpi-flags
endif

# The programs (but the MPI gcn-train above), the unit tests and the fuzz
# harnesses' replays (tree_rules above)
$(eval $(call tree_rules,,build,$$(CC) $$(ALLCFLAGS),.deps-ok,$(MPI_TOOLS)))

# The composition test's case generator (tests/cli/compose.test.sh): plain
# C, no library, so a seed draws the same case everywhere.
tests/bin/compose-gen: tests/cli/compose-gen.c build/dep/tests/bin/compose-gen.d
	@mkdir -p tests/bin build/dep/tests/bin
	$(CC) -std=c11 $(CFLAGS) $(DEPFLAGS) -MF build/dep/$@.d -o $@ tests/cli/compose-gen.c

# A shim for outputs.test.sh (LD_PRELOAD): mkstemp that waits after it
# has made its file, so that a signal can be sent at that point.
tests/bin/slow-mkstemp.so: tests/cli/slow-mkstemp.c
	@mkdir -p tests/bin
	$(CC) -std=c11 $(CFLAGS) -shared -fPIC -o $@ tests/cli/slow-mkstemp.c -ldl

# A maintainer's tool (not installed): a stream's provenance made
# machine-independent, for a model that ships (models/README.md).
build/mk/reheader: mk/reheader.c build/mk/reheader.d libcommon.a
	@mkdir -p build/mk
	$(CC) $(ALLCFLAGS) $(CPPFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ mk/reheader.c libcommon.a $(LDLIBS)

# Unit tests print Criterion's "Synthesis:" line each; CLI tests end with
# "N passed, N failed".  Any failure fails the target.  What some tests
# want beyond Criterion, so that a fresh machine runs the suite CI runs:
# numpy (the independent readers) and Open MPI (mpi.test.sh), installed as
# root where apt-get is, else named (those tests say they are skipped).
# The build comes after, in a make of its own, which finds an Open MPI
# installed just now and links gcn-train with it.
test: | .deps-ok
	@$(DEPS) want numpy mpi
	@$(MAKE) --no-print-directory all $(UNITS) tests/bin/compose-gen tests/bin/slow-mkstemp.so
	@set -e; for t in $(UNITS); do echo "== $$t"; $$t --jobs 2; done
	@sh tests/cli/run.sh $(CLI)
check: test

# the suite under load: two at once in two copies of this tree, beside busy
# loops, STRESS_RUNS times (mk/stress.sh, docs/building.md); it builds the
# copies itself
test-stress:
	@sh mk/stress.sh

run: all
	@sh mk/run.sh

# the paper's protocol: fine-tuning against random values (mk/run-adapt.sh)
run-adapt: all
	@sh mk/run-adapt.sh

# a smoke test of pre-training and adaptation, not a result (mk/smoke.sh)
smoke: all
	@sh mk/smoke.sh

bench: all
	@$(DEPS) bench
	@SECTIONS="$(SECTIONS)" sh bench/run.sh

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANPREFIX)/man1 $(DESTDIR)$(MANPREFIX)/man5 \
		$(DESTDIR)$(MANPREFIX)/man7
	cp -f $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	cp -f $(MAN1) $(DESTDIR)$(MANPREFIX)/man1/
	cp -f $(MAN5) $(DESTDIR)$(MANPREFIX)/man5/
	cp -f $(MAN7) $(DESTDIR)$(MANPREFIX)/man7/
	mkdir -p $(DESTDIR)$(PREFIX)/share/gnnpipe
	cp -f models/gcn-pretrain.gs models/README.md $(DESTDIR)$(PREFIX)/share/gnnpipe/
	mkdir -p $(DESTDIR)$(PYTHONDIR)/gnnpipe
	cp -f python/gnnstream.py python/gnnpipe_torch.py $(DESTDIR)$(PYTHONDIR)/
	cp -f python/gnnpipe/*.py python/README.md $(DESTDIR)$(PYTHONDIR)/gnnpipe/
	@sh mk/pyfind.sh '$(PYTHONDIR)' '$(PYTHON)'

# One style (.clang-format, clang-format 14 as Debian 12 has it): make lint
# fails on any C file of the tree that clang-format would change, and
# names it; make format rewrites them.  The files are git's where the tree
# is a checkout, else every *.c and *.h under the source directories.
# Then the names: every exported name of the library's objects starts with
# its file's prefix (docs/style.md, rule 18; nm, mk/prefix.sh), the
# exceptions listed with their reasons in mk/prefixes.txt; so lint builds
# the objects first.
LINT_SRC = $(or $(shell git ls-files '*.c' '*.h' 2>/dev/null),\
	$(wildcard common/*.[ch] tools/*.c tests/unit/*.[ch] tests/fuzz/*.[ch] tests/cli/*.c bench/*.c mk/*.c))
lint: $(COMMON_OBJ)
	@$(DEPS) lint
	@clang-format --dry-run --Werror $(LINT_SRC) && echo "lint: $(words $(LINT_SRC)) files in the style of .clang-format"
	@sh mk/prefix.sh $(COMMON_OBJ)
	@sh mk/floors.sh
format:
	@$(DEPS) lint
	@clang-format -i $(LINT_SRC) && echo "format: $(words $(LINT_SRC)) files in the style of .clang-format"

clean:
	rm -rf bin tests/bin libcommon.a common/*.o common/*.d .deps-ok tests/tmp build/optional.mk \
		build/clones-flags build/*.d build/mk/*.d build/double build/replay.o build/dep

.PHONY: all test test-stress check run run-adapt smoke bench lint format install clean deps-test FORCE
.PRECIOUS: tests/bin/%

# ---- fuzzing and sanitizers (issue 7): make fuzz, fuzz-build, test-asan,
# test-valgrind, clean-sanitize; the rules are in mk/sanitize.mk ----
include mk/sanitize.mk

# what each target read when it was last built (DEPFLAGS)
-include $(wildcard common/*.d build/dep/bin/*.d build/dep/tests/bin/*.d build/*.d build/double/*.d build/mk/*.d)
