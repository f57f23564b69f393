# features.test.sh - command-line table for nodefeat and centrality (sourced
# by run.sh with lib.sh: expect, expect_err, check, same).
D="$TOP/tests/cli/data"
T="$TMPD/feat"
mkdir -p "$T"
printf '0 1\n1 2\n2 0\n2 3\n' >"$T/tail.txt"	# a triangle with a tail
dcbm-gen --count 3 --nodes 60..120 -s 5 -l 0 -o "$T/g.gs"

for p in nodefeat centrality; do
	# usage and misuse
	expect 0 "$p -h"
	expect 0 "$p --version"
	expect 2 "$p --bogus"
	expect 2 "$p -l 10 $T/tail.txt"
	expect 2 "$p -j 0 $T/tail.txt"
	expect 2 "$p --tsv -o $T/x.tsv $T/tail.txt"
	# bad input: one line, exit 1, nothing left behind by -o
	expect_err 1 "$p $D/mask-garbage.bad.txt" "not an edge list"
	expect_err 1 "$p $D/mask-dup.bad.gs" "duplicate edge"
	expect_err 1 "$p $D/mask-range.bad.gs" "out of range"
	expect_err 1 "$p $T/missing.gs" "No such file"
	expect_err 1 "head -c 300 $T/g.gs | $p" "truncated"
	expect_err 1 "$p -o $T/out.gs $T/g.gs $D/mask-garbage.bad.txt" "not an edge list"
	check "[ ! -e $T/out.gs ] && [ -z \"\$(ls $T | grep tmp)\" ]" "$p: -o left a file after a failure"
	# killed while writing -o (input stalls after 3 graphs, until the
	# writer is ended): the old output stays as it was, and no temporary
	# file is left.  The signal waits for the temporary file (2 minutes at
	# most: a loaded machine is slow, not wrong).
	echo old >"$T/sig.gs"
	rm -f "$T/fifo"; mkfifo "$T/fifo"
	{ cat "$T/g.gs"; exec sleep 1000; } >"$T/fifo" &
	wpid=$!
	$p -q -o "$T/sig.gs" <"$T/fifo" &
	ppid=$!
	i=0
	while [ $i -lt 1200 ] && [ -z "$(ls "$T" | grep '^sig\.gs\.tmp')" ]; do sleep 0.1; i=$((i + 1)); done
	[ $i -lt 1200 ] || lib_bad "$p: no temporary file sig.gs.tmp* in 2 minutes: $(ls "$T")"
	kill -TERM $ppid
	wait $ppid
	rc=$?
	kill $wpid 2>/dev/null; wait $wpid 2>/dev/null
	check "[ $rc -eq 143 ]" "$p: SIGTERM: dies of the signal (status $rc)"
	check "[ \"\$(cat $T/sig.gs)\" = old ] && [ -z \"\$(ls $T | grep '^sig\.gs\.tmp')\" ]" \
		"$p: SIGTERM while writing -o: the old file is kept, no temporary file is left"
	expect_err 1 "$p $T/g.gs > /dev/full" "write error"
	expect_err 1 "$p --tsv $T/g.gs > /dev/full" "write error"
	# every input record is passed on, one tensor (two for nodefeat) added per graph
	expect 0 "$p -t $T/g.gs > $T/$p.txt"
	check "[ \$(grep -c '^@graph' $T/$p.txt) -eq 3 ] && [ \$(grep -c 'name=cluster' $T/$p.txt) -eq 3 ]" "$p: records lost"
	# running twice replaces, not duplicates, its own records
	expect 0 "$p $T/g.gs | $p -t > $T/$p.twice.txt"
	check "[ \$(grep -c '^@tensor' $T/$p.twice.txt) -eq \$(grep -c '^@tensor' $T/$p.txt) ]" "$p: stale tensors kept"
	# thread count does not change a byte
	expect 0 "$p -j 1 $T/g.gs > $T/$p.j1"
	expect 0 "$p -j 2 $T/g.gs > $T/$p.j2"
	same "$T/$p.j1" "$T/$p.j2" "$p: -j 1 and -j 2"
	# an edge list with a self-loop and a repeat: simplified, with a warning
	printf '0 1\n1 0\n2 2\n1 2\n' >"$T/messy.txt"
	expect 0 "$p --tsv $T/messy.txt > $T/messy.tsv"
	check "grep -q 'dropped 1 self-loop(s), merged 1 duplicate' $LIB_ERR" "$p: no warning for a messy edge list"
	expect 0 "$p -q --tsv $T/messy.txt > $T/messy.tsv"
	check "[ ! -s $LIB_ERR ]" "$p: -q did not silence the warning"
done

# values checked by hand on the triangle with a tail (0,1,2 a triangle, 3 hangs off 2)
expect 0 "nodefeat --tsv $T/tail.txt > $T/tail.nf"
check "awk 'NR==3 && \$2==2 && \$3==2 && \$4==3 && \$5==1 {ok++}
	NR==5 && \$2==3 && \$3==2 && \$4==4 && \$5>0.3333 && \$5<0.3334 && \$6==1 {ok++}
	NR==6 && \$2==1 && \$3==1 && \$4==0 && \$5==0 && \$6==0 && \$7==0 && \$8==0 {ok++}
	END {exit ok != 3}' $T/tail.nf" "nodefeat values on the triangle with a tail"
expect 0 "centrality --tsv $T/tail.txt > $T/tail.ce"
# betweenness of node 2: pairs (0,3) and (1,3) over (n-1)(n-2)/2 = 3; closeness of 3: 3/(1+2+2)
check "awk 'NR==5 && \$3 > 0.6666 && \$3 < 0.6667 && \$4 == 1 {ok++}
	NR==6 && \$3 == 0 && \$4 == 0.6 {ok++}
	END {exit ok != 2}' $T/tail.ce" "centrality values on the triangle with a tail"

# the paper's pipeline order runs end to end
expect 0 "dcbm-gen --count 4 -s 1 | centrality | mask-edges -q -s 2 | nodefeat -t > $T/pipe.txt"
check "[ \$(grep -c 'name=features ' $T/pipe.txt) -eq 4 ] && [ \$(grep -c 'name=centrality ' $T/pipe.txt) -eq 4 ] && [ \$(grep -c '^@pairs' $T/pipe.txt) -eq 4 ]" "pipeline records"

# a graph past --exact-max is estimated, and says so on stderr
expect 0 "centrality --exact-max 50 --samples 10 -t $T/g.gs > $T/approx.txt"
check "grep -q 'estimated betweenness to within .* and closeness to within .*; subgraph to within' $LIB_ERR && grep -q 'approx=bcs' $T/approx.txt" "centrality: approximation not reported"

# --scale log: log1p of degree, core and CI_1, clustering as is
printf '0 1\n1 2\n2 0\n2 3\n' | nodefeat --scale log --tsv >"$TMPD/flog.tsv" 2>&1
check "awk 'function near(a, b) { return a - b < 1e-12 && b - a < 1e-12 }
	NR == 5 && \$1 == 2 && near(\$6, log(4)) && near(\$7, log(3)) && near(\$8, log(5)) { ok = 1 }
	END { exit !ok }' $TMPD/flog.tsv" \
	"--scale log values of node 2"
expect 0 "printf '0 1\n' | nodefeat --scale log -t | grep -q '^@tensor.* name=features .*scale=log'"
expect_err 2 "nodefeat --scale zscore </dev/null" "--scale"
# --scale both: the min-max four, then log1p of degree, core and CI_1 (the
# same values as --scale minmax's four and --scale log's first three)
printf '0 1\n1 2\n2 0\n2 3\n3 4\n' >"$TMPD/both.el"
for m in minmax log both; do
	nodefeat -q -t --scale $m "$TMPD/both.el" | sed -n '/name=features /,/^@/p' | sed '1d;$d' >"$TMPD/f-$m.txt"
done
check "nodefeat -q -t --scale both $TMPD/both.el | grep -q '^@tensor id=0 name=features rows=5 cols=7 type=f64 columns=degree,core,ci1,clustering,degree_log,core_log,ci1_log .*scale=both'" \
	"--scale both: 7 named columns"
paste "$TMPD/f-minmax.txt" "$TMPD/f-log.txt" | awk '{ print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 }' >"$TMPD/f-want.txt"
same "$TMPD/f-both.txt" "$TMPD/f-want.txt" "--scale both: minmax's four and log's three, node by node"
