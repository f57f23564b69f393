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
# The cells of the datasets named in THIN (the Makefile's NO_REDIST: the
# MovieLens sets, which may not be redistributed) are carried thin, under
# DIR/thin/, gzipped: each test item and its predicted class, without the
# true class (the rating) and the class scores.  restore puts the true
# classes back from the dataset's edge labels (item e is edge e of its
# graph; nodefeat -t writes the graph as text, edges in order), so evalf1
# scores a restored cell as the original; the class scores are gone (evalf1
# does not read them) and the @tensor line says carried=thin.  save checks
# that each thin file restores to the original's items, classes and
# predictions before it keeps it.
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

# is cell file $1 (pred/DS--ARM.txt, or a part of it) one of a THIN dataset?
thin_ds() {
	set -- "$(ds_of "$1")"
	for t in ${THIN:-}; do [ "$1" = "$t" ] && return 0; done
	return 1
}

# the dataset of cell file $1
ds_of() {
	set -- "${1#pred/}"
	echo "${1%%--*}"
}

# the edge labels of dataset DS, one per line in edge order, in a file
# made once per call of this script
labels() {
	l="$work/$1.labels"
	if [ ! -f "$l" ]; then
		ds=
		for f in $sets; do [ "$(basename "$f" .gs)" = "$1" ] && ds=$f; done
		[ -n "$ds" ] || die "$1: no dataset stream among the data files, cannot carry its cells thin"
		"$BIN/nodefeat" -q -j 1 -t "$ds" | awk '
			/^@graph/ { n++; on = 1; next }
			/^[@#]/ { on = 0; next }
			on { if (NF < 3) { bad = 1; exit } print $3 }
			END { exit bad || n != 1 }' >"$l.tmp" ||
			die "$ds: not one graph with edge labels, cannot carry its cells thin"
		mv "$l.tmp" "$l"
	fi
	echo "$l"
}

# thin: predictions to items and predicted classes (stdin to stdout), each
# run's rows in the order of the items, an item as its step from the one
# before (item_step: a tenth of the bytes of the items in test order)
thin() {
	awk 'function flush(   i, last) {
		if (!inp) return
		last = 0
		for (i = 0; i <= mx; i++)
			if (i in p) { print i - last "\t" p[i]; last = i }
		delete p; mx = -1; inp = 0 }
	BEGIN { mx = -1 }
	/^[#@]/ { flush() }
	/^@tensor/ && / name=predictions / {
		if ($0 !~ / columns=item,true,pred[, ]/) { bad = 1; exit }
		sub(/ cols=[0-9]+/, " cols=2"); sub(/ columns=[^ ]*/, " columns=item_step,pred")
		print; inp = 1; next }
	/^[#@]/ { print; next }
	inp { if ($1 !~ /^[0-9]+$/ || ($1 + 0) in p) { bad = 1; exit }
	      p[$1 + 0] = $3; if ($1 + 0 > mx) mx = $1 + 0; next }
	{ print }
	END { if (!bad) flush(); exit bad }'
}

# thick LABELS: the items and true classes back (stdin to stdout): a class
# is the place of the edge label among the tensor's class_values
thick() {
	awk 'FNR == NR { lab[NR - 1] = $1; next }
	/^@tensor/ && / name=predictions / {
		if (!match($0, / class_values=[^ ]*/) || $0 !~ / cols=2 .*columns=item_step,pred( |$)/) {
			bad = 1; exit }
		n = split(substr($0, RSTART + 14, RLENGTH - 14), cv, ",")
		delete cls
		for (i = 1; i <= n; i++) cls[cv[i]] = i - 1
		sub(/ cols=2/, " cols=3"); sub(/ columns=item_step,pred/, " columns=item,true,pred")
		print $0 " carried=thin"; inp = 1; item = 0; next }
	/^@end/ { print "@end"; inp = 0; next }
	/^[#@]/ { print; inp = 0; next }
	inp { item += $1
	      if (!(item in lab) || !(lab[item] in cls)) { bad = 1; exit }
	      print item "\t" cls[lab[item]] "\t" $2; next }
	{ print }
	END { exit bad }' "$1" -
}

# the run, item, true class and prediction of each row of a predictions
# file, sorted (a thin copy keeps a run's rows in the order of the items)
core() {
	awk '/^@tensor/ { r++ } !/^[#@]/ { print r, $1, $2, $3 }' "$1" | LC_ALL=C sort
}

log() {
	printf '%s\t%s\t%s\t%s\n' "$(date +%FT%T)" "$(uname -n)" "$act" "$1" >>"$dir/carry.log"
}

# a file FILE restore finds in place: dated anew when A and B (the saved
# one and FILE, or what both hold) are the same, else kept and named
#   found A B FILE
found() {
	if cmp -s "$1" "$2"; then
		touch "$3"
	else
		echo "carry.sh: $3 exists and differs from the saved one, kept" >&2
	fi
}

# copy the files of part $1 from directory $2 to $3 (restore: never over
# a file that is there, but for the logs, which are merged; one that is
# there with the same bytes is dated now, in stage order like a copy, so
# make does not take it for older than the cheap stages just remade)
copy() {
	carried "$2" "$1" | while read -r f; do
		if [ "$act" = save ] && [ "$1" = cells ] && thin_ds "$f"; then continue; fi
		mkdir -p "$3/$(dirname "$f")"
		if [ "$act" = restore ] && [ -e "$3/$f" ]; then
			if [ "$1" = logs ]; then
				# a log this checkout has begun (the cheap stages made
				# before the restore): the carried lines first
				awk '!seen[$0]++' "$2/$f" "$3/$f" >"$3/$f.tmp.$$"
				mv "$3/$f.tmp.$$" "$3/$f"
			else
				found "$2/$f" "$3/$f" "$3/$f"
			fi
			continue
		fi
		cp "$2/$f" "$3/$f.tmp.$$" && mv "$3/$f.tmp.$$" "$3/$f"
	done
}

# save: the cells of THIN datasets from BUILD $1 to DIR $2/thin, each
# checked to restore to the original
save_thin() {
	carried "$1" cells | while read -r f; do
		thin_ds "$f" || continue
		mkdir -p "$2/thin/$(dirname "$f")"
		case $f in
		*.txt)
			l=$(labels "$(ds_of "$f")")
			thin <"$1/$f" >"$work/thin" || die "$1/$f: not gcn-adapt predictions, cannot carry it thin"
			thick "$l" <"$work/thin" >"$work/thick" ||
				die "$1/$f: an item or label the dataset does not have, cannot carry it thin"
			core "$1/$f" >"$work/a"
			core "$work/thick" | cmp -s "$work/a" - ||
				die "$1/$f: the thin copy does not restore to it; not saved"
			gzip -9 -n <"$work/thin" >"$2/thin/$f.gz" ;;
		*) gzip -9 -n <"$1/$f" >"$2/thin/$f.gz" ;;
		esac
	done
}

# restore: the thin cells of DIR $1 back into BUILD $2 (never over a file
# that is there: one with the same items, classes and predictions is dated
# anew, one that differs is kept and named)
restore_thin() {
	[ -d "$1/thin" ] || return 0
	(cd "$1" && find thin -type f -name '*.gz' | sort) | while read -r g; do
		f=${g#thin/}
		f=${f%.gz}
		mkdir -p "$2/$(dirname "$f")"
		case $f in
		*.txt)
			l=$(labels "$(ds_of "$f")")
			gzip -dc "$1/$g" | thick "$l" >"$work/thick" ||
				die "$1/$g: an item or label the dataset does not have; not restored" ;;
		*) gzip -dc "$1/$g" >"$work/thick" ;;
		esac
		if [ -e "$2/$f" ]; then
			case $f in
			*.txt) core "$2/$f" >"$work/a"; core "$work/thick" >"$work/b" ;;
			*) cp "$2/$f" "$work/a"; cp "$work/thick" "$work/b" ;;
			esac
			found "$work/a" "$work/b" "$2/$f"
			continue
		fi
		mv "$work/thick" "$2/$f.tmp.$$" && mv "$2/$f.tmp.$$" "$2/$f"
	done
}

: "${BIN:?carry.sh: BIN is not set}" "${TRAIN_CONFIG:?carry.sh: TRAIN_CONFIG is not set}"
: "${GRAPHS:?carry.sh: GRAPHS is not set}"
for f in "$BIN/gcn-train" "$BIN/gcn-adapt" "$BIN/centrality" "$TRAIN_CONFIG" "$GRAPHS" \
	"$build/labelled.gs" ${THIN:+"$BIN/nodefeat"} "$@"; do
	[ -s "$f" ] || die "$f is missing: make it first"
done
sets="$*"
work=$(mktemp -d)
tmp=
trap 'rm -rf "$work" ${tmp:+"$tmp"}' EXIT
sm=$(stamp_models)
sc=$(stamp_cells "$@")
case $act in
save)
	tmp=$dir.tmp.$$
	rm -rf "$tmp"
	mkdir -p "$tmp" "$dir"
	for part in models cells logs; do copy $part "$build" "$tmp"; done
	save_thin "$build" "$tmp"
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
	t=$(if [ -d "$dir/thin" ]; then
		cd "$dir/thin" && find pred -type f -name '*.gz' | sed 's/\.gz$//' | sort; fi)
	c=$(printf '%s\n%s\n' "$c" "$t")
	cells=$(printf '%s\n' "$c" | grep -c '^pred/[^/]*\.txt$' || true)
	runs=$(printf '%s\n' "$c" | grep -c '\.parts/r[0-9]*\.txt$' || true)
	nt=$(printf '%s\n' "$t" | grep -c '\.txt$' || true)
	what="$models models, $ckpt checkpoints, $cells finished cells, $runs runs of stopped cells ($nt files thin)"
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
			restore_thin "$dir" "$build"
			what="$what and cells"
		else
			echo "carry.sh: $dir: the cells were made by another gcn-adapt, adapt.sh, datasets or options; not restored" >&2
		fi
	else
		echo "carry.sh: $dir: the models were made by another gcn-train, config, graphs or libraries; nothing restored but the logs" >&2
	fi
	copy logs "$dir" "$build"
	n=$( (carried "$dir" models; carried "$dir" cells
	      [ ! -d "$dir/thin" ] || find "$dir/thin" -type f) | wc -l)
	log "${what:-nothing} restored ($n files there)"
	echo "carry.sh: restored ${what:-nothing but the logs} from $dir" >&2
	;;
*) echo "usage: sh carry.sh save|restore BUILD DIR DATA..." >&2; exit 2 ;;
esac
