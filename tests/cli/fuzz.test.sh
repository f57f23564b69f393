# fuzz.test.sh - the inputs the fuzzers found (tests/fuzz/regress/NAME/*)
# replayed through their harness (tests/fuzz/fuzz_NAME.c, built without
# libFuzzer as tests/bin/replay_NAME; make test-asan replays them through
# the ASan build's, GNN_REPLAY): each must pass every check of the
# harness (one-line errors, no crash; the sanitizers check the rest).
# Sourced by run.sh with lib.sh.
R=${GNN_REPLAY:-$TOP/tests/bin}
for d in "$TOP"/tests/fuzz/regress/*/; do
	name=$(basename "$d")
	check "[ -x $R/replay_$name ]" "tests/fuzz/regress/$name has a harness (tests/fuzz/fuzz_$name.c)"
	for f in "$d"*; do
		[ -f "$f" ] && expect 0 "$R/replay_$name '$f'"
	done
done
