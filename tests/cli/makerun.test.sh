# makerun.test.sh - `make run`'s script (mk/run.sh) at 3 runs (IMDB-BINARY:
# 3 folds): the probe's table, the paired intervals, the embeddings.  Sourced by run.sh with lib.sh.
T="$TMPD/makerun"
mkdir -p "$T"
expect 0 "cd $TOP && PATH=$BIN:\$PATH OUT=$T/out RUNS=3 sh mk/run.sh >$T/run.out 2>$T/run.err"
# a line per arm and set: a mean ± sd, and each baseline's paired
# difference with its interval and what it means
check "[ \$(grep -c '^    shipped pre-trained encoder  *[0-9.]* ± [0-9.]*\$' $T/run.out) = 3 ] &&
	[ \$(grep -c '^    \(random encoder (same shape)\|hand-made set (ReFeX, 20)\)  *[0-9.]* ± [0-9.]*   pre-trained  *[-+][0-9.]*, 95% interval \[[-+][0-9.]*, [-+][0-9.]*\]: \(a gain\|a loss\|no clear difference\)\$' $T/run.out) = 6 ] &&
	grep -q '^  cora\$' $T/run.out && grep -q '^  ba-shapes\$' $T/run.out && grep -q '^  imdb-binary (graphs)\$' $T/run.out &&
	grep -q 'over 3 runs' $T/run.out" \
	"make run: each set's three arms and the two paired differences"
# the figures are evalf1's, of the files it leaves
check "m=\$(evalf1 --format tsv $T/out/cora-pretrained.txt | awk -F '\t' '\$1 == \"mean\" { printf \"%.1f\", 100 * \$3 }') &&
	grep -q \"^    shipped pre-trained encoder  *\$m ± \" $T/run.out" "make run: the pre-trained figure is evalf1's of its predictions"
check "[ \$(grep -c '^@tensor' $T/out/cora-random.txt) = 3 ] && [ \$(grep -c '^@tensor' $T/out/ba-shapes-refex.txt) = 3 ] &&
	evalf1 --baseline $T/out/cora-random.txt $T/out/cora-pretrained.txt >/dev/null &&
	[ \$(grep -c '^@tensor' $T/out/imdb-binary-random.txt) = 3 ] &&
	evalf1 --baseline $T/out/imdb-binary-refex.txt $T/out/imdb-binary-random.txt >/dev/null" \
	"make run: three runs (folds) an arm, paired on the same splits"
check "python3 -c 'import numpy as np; x = np.load(\"$T/out/cora-embeddings.npy\"); assert x.shape == (2708, 1536)' 2>/dev/null ||
	! python3 -c 'import numpy' 2>/dev/null" "make run: Cora's embeddings open in NumPy, (2708, 1536)"
check "grep -q '^took [0-9]* s; files in $T/out/\$' $T/run.out && [ ! -e $T/out/cora-random.gs ]" "make run: its time, no draw left behind"
