#!/bin/sh
# carry.sh - carry a long run's finished work from one checkout (machine,
# session) to another, through a directory that can be committed.
#   sh carry.sh save BUILD DIR DATA...
#   sh carry.sh restore BUILD DIR DATA...
# BUILD is the stage directory (build/full), DIR the carried copy
# (saved/full), DATA the dataset streams the cells read.
#
# save copies what took hours to DIR: the pre-trained models, any
# pre-training checkpoint, the training and stage logs, every finished
# cell's predictions and the finished runs of stopped cells; with them two
# stamps, sha256 sums of everything those files were made from:
#   stamp.models  bin/gcn-train, TRAIN_CONFIG, the pre-training graphs
#                 GRAPHS, bin/centrality that labels them, the compiler's
#                 and libraries' versions
#   stamp.cells   stamp.models, bin/gcn-adapt, adapt.sh, the datasets,
#                 RUNS, SEED and ADAPT_OPTS
# The binaries stand for their sources: the same sources, built by the
# same compiler at the same path, give the same bytes.  Neither stamp
# covers the Makefile's recipes (the programs' provenance records hold
# their command lines), so a new target leaves the carried work valid.
# The labelled graphs count by their recipe, not their bytes: their
# centralities come from LAPACK, whose last bits depend on the kernels
# OpenBLAS picks for the CPU at hand.
#
# restore, on a checkout where a stamp is the same (the Makefile has made
# the programs, the datasets and the labelled graphs first), copies those
# files back and dates them in the order of the stages, models before the
# cells' runs, so make and adapt.sh take them as up to date.  make's own
# check is by date, which a fresh clone cannot keep; the stamps are the
# stronger check, by content.  A stamp that differs restores nothing of
# its part (the models, or the cells) and says so: that work was made by
# other programs or inputs and would be stale.  A file BUILD already has
# is never overwritten: one with the saved bytes is dated anew like a
# copy, one that differs is kept and named (the stage and run logs,
# times.tsv and runs.tsv, get the carried lines added before their own).
#
# Both append a line to DIR/carry.log (date, host, action, what was
# carried): the sessions of a run that spans several of them.
set -eu
[ $# -ge 3 ] || { echo "usage: sh carry.sh save|restore BUILD DIR DATA..." >&2; exit 2; }
act=$1 build=$2 dir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "carry.sh: $*" >&2; exit 1; }

libs() {
	cc -dumpfullversion 2>/dev/null || echo "no cc"
	dpkg-query -W -f '${db:Status-Abbrev} ${Package} ${Version}\n' 'libopenblas0*' \
		libgsl27 libgomp1 zlib1g libyaml-0-2 libarpack2 libc6 2>/dev/null | sed -n 's/^ii  *//p'
}
sums() {	# sha256 of each file, without its directory
	sha256sum "$@" | sed 's|  .*/|  |'
}
stamp_models() {
	{ sums "$BIN/gcn-train" "$TRAIN_CONFIG" "$GRAPHS" "$BIN/centrality"; libs; } |
		sha256sum | cut -c1-64
}
stamp_cells() {
	{ stamp_models; sums "$BIN/gcn-adapt" "$here/adapt.sh" "$@"
	  echo "RUNS=${RUNS:-} SEED=${SEED:-} ADAPT_OPTS=${ADAPT_OPTS:-}"; } |
		sha256sum | cut -c1-64
}

# the carried files of a part (models, cells, logs), relative to BUILD,
# in the order of the stages
carried() {
	(cd "$1" || exit 0
	case $2 in
	models)
		for f in model-all.gs model-rec.gs model-rank.gs model-cluster.gs \
			ckpt-*.gs train-*.tsv; do
			[ -f "$f" ] && echo "$f"
		done ;;
	cells)
		[ -d pred ] && find pred -type f \( -name '*.txt' -o -path '*.parts/args' \) \
			! -name '*.tmp*' | sort ;;
	logs)
		for f in times.tsv runs.tsv; do [ -f "$f" ] && echo "$f"; done ;;
	esac
	) || true
}

log() {
	printf '%s\t%s\t%s\t%s\n' "$(date +%FT%T)" "$(uname -n)" "$act" "$1" >>"$dir/carry.log"
}

# copy the files of part $1 from directory $2 to $3 (restore: never over
# a file that is there, but for the logs, which are merged; one that is
# there with the same bytes is dated now, in stage order like a copy, so
# make does not take it for older than the cheap stages just remade)
copy() {
	carried "$2" "$1" | while read -r f; do
		mkdir -p "$3/$(dirname "$f")"
		if [ "$act" = restore ] && [ -e "$3/$f" ]; then
			if [ "$1" = logs ]; then
				# a log this checkout has begun (the cheap stages made
				# before the restore): the carried lines first
				awk '!seen[$0]++' "$2/$f" "$3/$f" >"$3/$f.tmp.$$"
				mv "$3/$f.tmp.$$" "$3/$f"
			elif cmp -s "$2/$f" "$3/$f"; then
				touch "$3/$f"
			else
				echo "carry.sh: $3/$f exists and differs from the saved one, kept" >&2
			fi
			continue
		fi
		cp "$2/$f" "$3/$f.tmp.$$" && mv "$3/$f.tmp.$$" "$3/$f"
	done
}

: "${BIN:?carry.sh: BIN is not set}" "${TRAIN_CONFIG:?carry.sh: TRAIN_CONFIG is not set}"
: "${GRAPHS:?carry.sh: GRAPHS is not set}"
for f in "$BIN/gcn-train" "$BIN/gcn-adapt" "$BIN/centrality" "$TRAIN_CONFIG" "$GRAPHS" \
	"$build/labelled.gs" "$@"; do
	[ -s "$f" ] || die "$f is missing: make it first"
done
sm=$(stamp_models)
sc=$(stamp_cells "$@")
case $act in
save)
	tmp=$dir.tmp.$$
	rm -rf "$tmp"
	mkdir -p "$tmp" "$dir"
	for part in models cells logs; do copy $part "$build" "$tmp"; done
	echo "$sm" >"$tmp/stamp.models"
	echo "$sc" >"$tmp/stamp.cells"
	# DIR becomes the new set (what it held is in BUILD too after a
	# restore; a cell finished since drops its kept runs); its log stays
	find "$dir" -mindepth 1 -maxdepth 1 ! -name carry.log -exec rm -rf {} +
	(cd "$tmp" && find . -mindepth 1 -maxdepth 1 -exec mv {} "../$(basename "$dir")/" \;)
	rm -rf "$tmp"
	m=$(carried "$dir" models) c=$(carried "$dir" cells)
	models=$(printf '%s\n' "$m" | grep -c '^model-' || true)
	ckpt=$(printf '%s\n' "$m" | grep -c '^ckpt-' || true)
	cells=$(printf '%s\n' "$c" | grep -c '^pred/[^/]*\.txt$' || true)
	runs=$(printf '%s\n' "$c" | grep -c '\.parts/r[0-9]*\.txt$' || true)
	what="$models models, $ckpt checkpoints, $cells finished cells, $runs runs of stopped cells"
	log "$what"
	echo "carry.sh: saved $what to $dir" >&2
	;;
restore)
	[ -f "$dir/stamp.models" ] || die "$dir: nothing saved there"
	what=
	if [ "$(cat "$dir/stamp.models")" = "$sm" ]; then
		copy models "$dir" "$build"
		what="models"
		if [ "$(cat "$dir/stamp.cells")" = "$sc" ]; then
			# the kept runs' argument files (adapt.sh) and the finished
			# cells (make) must be newer than the models
			sleep 1
			copy cells "$dir" "$build"
			what="$what and cells"
		else
			echo "carry.sh: $dir: the cells were made by another gcn-adapt, adapt.sh, datasets or options; not restored" >&2
		fi
	else
		echo "carry.sh: $dir: the models were made by another gcn-train, config, graphs or libraries; nothing restored but the logs" >&2
	fi
	copy logs "$dir" "$build"
	n=$( (carried "$dir" models; carried "$dir" cells) | wc -l)
	log "${what:-nothing} restored ($n files there)"
	echo "carry.sh: restored ${what:-nothing but the logs} from $dir" >&2
	;;
*) echo "usage: sh carry.sh save|restore BUILD DIR DATA..." >&2; exit 2 ;;
esac
