#!/bin/sh
# same.sh - behaviour unchanged between two revisions (docs/refactor-plan.md,
# "How a step is checked", V2; -b adds V3, -s V4).
#   sh mk/same.sh [-bs] [-d DIR] [-j N] OLD NEW
# OLD and NEW are anything git names a commit by (a hash, a branch, a tag,
# HEAD~2) in the repository this script is in.  For each in turn:
#   1. `git archive REV | tar -x` into DIR/tree, one fixed path for both, so
#      that whatever records a path (a model's command line, a message
#      naming a file) records the same one; `nice make -j N` there;
#   2. mk/same-run.sh runs in DIR/run with DIR/tree/bin first in PATH and
#      keeps every output file, stdout, stderr and exit status in
#      DIR/out-old or DIR/out-new;
#   3. the tree is moved aside to DIR/build-HASH, and taken back instead of
#      extracted and built again when the same commit comes again (rm -r
#      DIR to start afresh).
# Then `diff -r DIR/out-old DIR/out-new`: it prints what differs and the
# script exits 1, or says "same outputs" and exits 0.
#
# The commands and inputs are this checkout's, whatever OLD and NEW hold:
# mk/same-run.sh and what it reads (man pages' EXAMPLES, the bad-input
# table and its inputs, data/, tests/cli/data/, pipelines/*.yaml) are
# copied from the working files of the checkout this script is in into
# DIR/in, so that a branch made before same-run.sh existed is checked by
# the same commands as its base.  Nothing of the caller's checkout is
# changed: git archive only reads the repository.
#
#   -b      also the binaries (V3): bin/*, tests/bin/* (the unit tests,
#           the fuzz harnesses' replays and compose-gen, built too) and
#           common/*.o must be byte-identical, for a step that changes no
#           C file
#   -s      -b, comparing after `strip --strip-debug` and without the build id (V4: the format
#           step moves lines, and line numbers live only in the debug
#           information; the unit tests' asserts record theirs, so
#           tests/bin/* are left out)
#   -d DIR  the working directory [${TMPDIR:-/tmp}/gnn-same]
#   -j N    make's jobs [2]
# Exit status: 0 the same, 1 different, 2 usage or a failed build.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${TMPDIR:-/tmp}/gnn-same
jobs=2
bins=
strip=
usage() {
	echo "usage: sh mk/same.sh [-bs] [-d dir] [-j jobs] old new" >&2
	exit 2
}
while getopts bd:j:s o; do
	case $o in
	b) bins=1 ;;
	d) dir=$OPTARG ;;
	j) jobs=$OPTARG ;;
	s) strip=1 bins=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
die() {
	echo "same.sh: $*" >&2
	exit 2
}
hash_of() {
	git -C "$top" rev-parse --verify -q "$1^{commit}" || die "$1: not a commit"
}
old=$(hash_of "$1")
new=$(hash_of "$2")
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
case $dir/ in "$top"/*) die "$dir: inside the checkout; pick a directory outside it" ;; esac

# The inputs, once for both runs.
rm -rf "$dir/in"
mkdir -p "$dir/in"
(cd "$top" && tar -cf - mk/same-run.sh man tests/badinput tests/cli/data tests/cli/modelcfg.awk \
	data/*.gs pipelines/*.yaml) | tar -xf - -C "$dir/in"

# build REV HASH: DIR/tree holds HASH built (with the unit tests for -b);
# an earlier run's tree of HASH is taken back and made again (make finds
# it done, or builds what it lacks, such as the unit tests)
build() {
	rm -rf "$dir/tree"
	if [ -f "$dir/build-$2/.same-tree" ]; then
		mv "$dir/build-$2" "$dir/tree"
		echo "same.sh: $1 ($2): the tree of an earlier run" >&2
	else
		rm -rf "$dir/build-$2" "$dir/build-$2.log"
		mkdir -p "$dir/tree"
		git -C "$top" archive "$2" | tar -xf - -C "$dir/tree"
		touch "$dir/tree/.same-tree"
	fi
	echo "same.sh: $1 ($2): building in $dir/tree (log: $dir/build-$2.log)" >&2
	units=
	[ -z "$bins" ] || units="tests/bin/compose-gen $(cd "$dir/tree" && ls tests/unit/test_*.c tests/fuzz/fuzz_*.c |
		sed -e 's|^tests/unit/\(.*\)\.c$|tests/bin/\1|' -e 's|^tests/fuzz/fuzz_\(.*\)\.c$|tests/bin/replay_\1|')"
	(cd "$dir/tree" && nice make -j"$jobs" all $units) >>"$dir/build-$2.log" 2>&1 ||
		{ tail -n 20 "$dir/build-$2.log" >&2; die "$1: the build failed"; }
}

# run LABEL REV HASH: same-run.sh's outputs of HASH's programs in DIR/out-LABEL
run() {
	build "$2" "$3"
	rm -rf "$dir/run" "$dir/out-$1"
	mkdir -p "$dir/run"
	echo "same.sh: $2: running mk/same-run.sh (log: $dir/run-$1.log)" >&2
	t0=$(date +%s)
	(cd "$dir/run" && PATH="$dir/tree/bin:$PATH" IN="$dir/in" nice sh "$dir/in/mk/same-run.sh" out) \
		>"$dir/run-$1.log" 2>&1 || { tail -n 20 "$dir/run-$1.log" >&2; die "$2: same-run.sh failed"; }
	echo "same.sh: $2: $(($(date +%s) - t0)) s" >&2
	mv "$dir/run/out" "$dir/out-$1"
	mv "$dir/tree" "$dir/build-$3"
}

run old "$1" "$old"
run new "$2" "$new"

rc=0
if diff -r --no-dereference "$dir/out-old" "$dir/out-new"; then
	echo "same outputs: $1 ($old) and $2 ($new), $(find "$dir/out-new" -type f | wc -l) files"
else
	echo "same.sh: the outputs of $1 and $2 differ (above; the trees: $dir/out-old, $dir/out-new)"
	rc=1
fi

# the binaries (-b), stripped of their debug information (-s)
if [ -n "$bins" ]; then
	a=$dir/build-$old b=$dir/build-$new
	# (not the .d files: what each build read)
	list() { (cd "$1" && ls bin/* common/*.o; [ -n "$strip" ] || ls tests/bin/*) | grep -v '\.d$'; }
	files=$(list "$a"; list "$b")
	n=0 differ=
	for f in $(printf '%s\n' $files | sort -u); do
		n=$((n + 1))
		if [ ! -e "$a/$f" ] || [ ! -e "$b/$f" ]; then
			differ="$differ $f(only-in-one)"
		elif [ -n "$strip" ]; then
			# the build id hashes the whole linked file, its debug
			# information too: a program's differs when a line moved
			strip --strip-debug -R .note.gnu.build-id -o "$dir/strip-a" "$a/$f"
			strip --strip-debug -R .note.gnu.build-id -o "$dir/strip-b" "$b/$f"
			cmp -s "$dir/strip-a" "$dir/strip-b" || differ="$differ $f"
		else
			cmp -s "$a/$f" "$b/$f" || differ="$differ $f"
		fi
	done
	rm -f "$dir/strip-a" "$dir/strip-b"
	if [ -z "$differ" ]; then
		echo "same binaries${strip:+ (stripped)}: $n files"
	else
		echo "same.sh: binaries differ${strip:+ (stripped)}:$differ"
		rc=1
	fi
fi
exit $rc
