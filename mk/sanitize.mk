# sanitize.mk - fuzzing and sanitizer builds, included by the top-level Makefile
# (which defines COMMON_SRC, TOOL_SRC, UNIT_SRC, DEPS, the flags) at its end.

# ---- fuzzing and sanitizers (issue 7) ----
#   make fuzz        libFuzzer harnesses of tests/fuzz (clang), FUZZ_SECONDS each;
#                    fails if one finds a crash (artifacts in build/fuzz/crashes/)
#   make test-asan   every program and unit test under ASan + UBSan in build/asan/,
#                    then the unit tests and the CLI suite but its pipelines,
#                    man-examples and build-noroot tests (ASAN_CLI=names for
#                    a subset, e.g. ASAN_CLI='badinput mask-edges'; =all)
#   make test-valgrind  memcheck over a short pipeline of every program
# Both trees are separate: the normal objects, libcommon.a and bin/ are untouched.
FUZZ_CC      ?= clang
FUZZ_DIR     ?= build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   ?= -g -O1 -fsanitize=fuzzer,address,undefined
FUZZ_OPTS    ?= -timeout=10 -rss_limit_mb=2048
# every harness tests/fuzz/fuzz_NAME.c (FUZZ_NAMES='model tu' runs those)
FUZZ_NAMES    = $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS     = $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_NAMES))
FUZZ_OBJ      = $(patsubst common/%.c,$(FUZZ_DIR)/common/%.o,$(COMMON_SRC))
# Each target first replays its regression inputs (tests/fuzz/regress/NAME,
# under the fuzzer's sanitizers and memory limit), then fuzzes.
# libFuzzer stops at the first crash and writes it to crashes/; the corpora
# grow in build/fuzz/corpus-NAME, seeded from tests/fuzz/corpus/NAME.
FUZZ_RUN_ENV  = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

deps-fuzz: | .deps-ok
	@$(DEPS_ENV) FUZZ_CC='$(FUZZ_CC)' FUZZ_FLAGS='$(FUZZ_FLAGS)' sh mk/deps.sh fuzz

$(FUZZ_OBJ): $(FUZZ_DIR)/common/%.o: common/%.c $(FUZZ_DIR)/common/%.d | .deps-ok deps-fuzz
	@mkdir -p $(FUZZ_DIR)/common
	$(FUZZ_CC) -std=c11 $(OMPFLAGS) -Wall -Wextra $(FUZZ_FLAGS) $(CPPFLAGS) $(CLONES_CPPFLAGS) $(DEPFLAGS) \
		-c -o $@ $<
$(patsubst common/%.c,$(FUZZ_DIR)/common/%.o,$(CLONED_SRC)): build/clones-flags

$(FUZZ_DIR)/libcommon.a: $(FUZZ_OBJ)
	rm -f $@
	ar rcs $@ $(FUZZ_OBJ)

$(FUZZ_BINS): $(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DIR)/fuzz_%.d $(FUZZ_DIR)/libcommon.a
	$(FUZZ_CC) -std=c11 $(OMPFLAGS) -Wall -Wextra $(FUZZ_FLAGS) $(CPPFLAGS) $(DEPFLAGS) $(LDFLAGS) \
		-o $@ $< $(FUZZ_DIR)/libcommon.a $(LDLIBS)

fuzz-build: $(FUZZ_BINS)

# The harnesses without libFuzzer (tests/fuzz/replay.c): make test replays
# tests/fuzz/regress/NAME/* through tests/bin/replay_NAME
# (tests/cli/fuzz.test.sh), make test-asan through the ASan build's.
# (Their link rules are the Makefile's tree_rules.)
REPLAYS       = $(patsubst %,tests/bin/replay_%,$(FUZZ_NAMES))
test: $(REPLAYS)

fuzz: fuzz-build
	@rm -rf $(FUZZ_DIR)/crashes; mkdir -p $(FUZZ_DIR)/crashes
	@rc=0; for f in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZ_DIR)/corpus-$$f; \
		cp -f tests/fuzz/corpus/$$f/* $(FUZZ_DIR)/corpus-$$f/; \
		echo "== fuzz_$$f ($(FUZZ_SECONDS) s)"; \
		if [ -d tests/fuzz/regress/$$f ]; then \
			$(FUZZ_RUN_ENV) $(FUZZ_DIR)/fuzz_$$f $(FUZZ_OPTS) \
				-artifact_prefix=$(FUZZ_DIR)/crashes/$$f- \
				tests/fuzz/regress/$$f/* 2>$(FUZZ_DIR)/regress-$$f.log || \
				{ cat $(FUZZ_DIR)/regress-$$f.log; rc=1; }; fi; \
		$(FUZZ_RUN_ENV) $(FUZZ_DIR)/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) \
			$(FUZZ_OPTS) -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_DIR)/crashes/$$f- \
			$(FUZZ_DIR)/corpus-$$f || rc=1; \
	done; \
	if ls $(FUZZ_DIR)/crashes/* >/dev/null 2>&1; then \
		echo "fuzz: crash inputs in $(FUZZ_DIR)/crashes/:"; ls $(FUZZ_DIR)/crashes; rc=1; fi; \
	exit $$rc

ASAN_CC     ?= $(CC)
ASAN_DIR    ?= build/asan
ASAN_FLAGS  ?= -fsanitize=address,undefined -fno-omit-frame-pointer -g -O1
ASAN_CFLAGS  = -std=c11 $(OMPFLAGS) -Wall -Wextra $(ASAN_FLAGS)
ASAN_OBJ     = $(patsubst common/%.c,$(ASAN_DIR)/common/%.o,$(COMMON_SRC))
ASAN_TOOLS   = $(patsubst tools/%.c,$(ASAN_DIR)/bin/%,$(TOOL_SRC))
ASAN_UNITS   = $(patsubst tests/unit/%.c,$(ASAN_DIR)/tests/bin/%,$(UNIT_SRC))
# The CLI suite under ASan, less what runs no code of ours the rest does not
# (the pipelines' and make run's scripts, the man pages' examples and the
# README's commands run the same programs on the same paths as the program
# tests; python's and pypkg's tests are mostly Python; build-noroot builds without ASan
# and install copies the tree's own programs) and the tests that mostly train (gcn-adapt, infer,
# precision, determinism, clones: their kernels are the unit tests', run under ASan
# above, and tests/valgrind.sh runs every program's path once; mpi skips
# here, the ASan gcn-train has no MPI): CI's time is bounded
# (docs/building.md, "Memory and input safety").  ASAN_CLI=all runs every test.
ASAN_CLI_ALL = $(patsubst tests/cli/%.test.sh,%,$(wildcard tests/cli/*.test.sh))
ASAN_CLI    ?= $(filter-out pipelines man-examples readme python pypkg build-noroot install makerun \
	gcn-adapt infer precision determinism clones mpi,$(ASAN_CLI_ALL))
# Leaks are checked; tests/lsan.supp names the few that are the runtime's
# (OpenBLAS/OpenMP thread pools), never ours.
ASAN_RUN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	       LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	       UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# the unit tests' and the CLI suite's needs (as make test's), and the
# sanitizers' runtimes
deps-asan: | .deps-ok
	@$(DEPS_ENV) CC='$(ASAN_CC)' ASAN_FLAGS='$(ASAN_FLAGS)' sh mk/deps.sh test asan

$(ASAN_DIR)/common/gemm.o: CPPFLAGS += $(DNNL_CPPFLAGS)
$(ASAN_OBJ): $(ASAN_DIR)/common/%.o: common/%.c $(ASAN_DIR)/common/%.d | .deps-ok deps-asan
	@mkdir -p $(ASAN_DIR)/common
	$(ASAN_CC) $(ASAN_CFLAGS) $(CPPFLAGS) $(CLONES_CPPFLAGS) $(DEPFLAGS) -c -o $@ $<
$(call CLONED_OBJ_IN,$(ASAN_DIR),$(ASAN_DIR)/): build/clones-flags

$(ASAN_DIR)/libcommon.a: $(ASAN_OBJ)
	rm -f $@
	ar rcs $@ $(ASAN_OBJ)

# the programs, unit tests and replays (the Makefile's tree_rules)
$(eval $(call tree_rules,$(ASAN_DIR)/,$(ASAN_DIR),$$(ASAN_CC) $$(ASAN_CFLAGS),.deps-ok deps-asan))
ASAN_REPLAYS = $(patsubst %,$(ASAN_DIR)/tests/bin/replay_%,$(FUZZ_NAMES))

# The programs find the shipped model beside them (bin/../models): the
# ASan tree gets the same view.
asan-build: .deps-ok deps-asan $(ASAN_TOOLS) $(ASAN_UNITS) $(ASAN_REPLAYS)
	@ln -sfn ../../models $(ASAN_DIR)/models

test-asan: asan-build tests/bin/compose-gen tests/bin/slow-mkstemp.so
	@set -e; for t in $(ASAN_UNITS); do echo "== $$t"; $(ASAN_RUN_ENV) $$t --jobs 2; done
	@$(ASAN_RUN_ENV) GNN_BIN=$(CURDIR)/$(ASAN_DIR)/bin \
		GNN_REPLAY=$(CURDIR)/$(ASAN_DIR)/tests/bin sh tests/cli/run.sh \
		$(if $(filter all,$(ASAN_CLI)),$(ASAN_CLI_ALL),$(ASAN_CLI))

# memcheck over a short pipeline through every program (tests/valgrind.sh)
test-valgrind: all
	@$(DEPS) valgrind
	@sh tests/valgrind.sh

clean-sanitize:
	rm -rf $(FUZZ_DIR) $(ASAN_DIR) build/dep/$(ASAN_DIR)

.PHONY: fuzz fuzz-build test-asan test-valgrind asan-build clean-sanitize deps-fuzz deps-asan
.PRECIOUS: $(ASAN_DIR)/tests/bin/% $(ASAN_DIR)/bin/% $(FUZZ_DIR)/fuzz_% tests/bin/replay_%

-include $(wildcard $(FUZZ_DIR)/*.d $(FUZZ_DIR)/common/*.d $(ASAN_DIR)/*.d $(ASAN_DIR)/common/*.d \
	build/dep/$(ASAN_DIR)/bin/*.d build/dep/$(ASAN_DIR)/tests/bin/*.d $(ASAN_DIR)/double/*.d)
