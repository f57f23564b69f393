#!/bin/sh
# shellcheck disable=SC2086  # option lists are split on purpose
# corpus.sh - a mixed pre-training corpus from a file such as corpus.yaml
# (corpus.mk): each part of the file is one run of a generator, the parts'
# graphs are numbered in turn, each part's share of the validation graphs
# goes last, and centrality labels the whole.
#
#   sh corpus.sh plan CONFIG       the runs, one a line: part, split (train
#                                  or val), first id, count, program, options
#   sh corpus.sh files CONFIG      the files CONFIG's parts read (their
#                                  config keys), for make
#   sh corpus.sh build CONFIG OUT  the corpus into OUT
#
# CONFIG is YAML of this form (corpus.yaml documents the keys):
#   seed: N                  top-level keys: seed (every part's -s unless it
#   validation: N            has its own) and validation (the graphs held out
#   PART:                    at the end, 124 per 1024 unless given, as
#     program: graph-gen     gcn-train --validation's default); then one
#     count: N               mapping per part: its program (dcbm-gen or
#     KEY: VALUE             graph-gen, graph-gen unless given), its count,
#                            and any long option of the program as KEY
# Only this subset of YAML is read: `key: value` lines, a value a plain
# word (letters, digits and _ . , : + / -; a range as lo..hi, not [lo, hi]),
# two levels, comments after `#`.  Anything else is refused with its line.
# The parts' ids follow each other from 0; a part's validation graphs are
# the last ids of its range.  V validation graphs are split over the parts
# in proportion to their counts (largest remainders, ties to the earlier
# part), so the corpus's last V graphs, which gcn-train validates on, mix
# the parts as its first ones do.
# Environment: BIN (the programs; else PATH), THREADS (default 2).
set -eu

plan() {
	awk -v F="$1" '
	function bad(what) {
		if (NR) printf "corpus.sh: %s: line %d: %s\n", F, NR, what > "/dev/stderr"
		else printf "corpus.sh: %s: %s\n", F, what > "/dev/stderr"
		err = 1; exit 1
	}
	function word(v) { return v ~ /^[A-Za-z0-9_.,:+\/-]+$/ }
	{ sub(/^#.*/, ""); sub(/[ \t]+#.*$/, ""); sub(/[ \t]+$/, "") }
	/^$/ { next }
	/\t/ { bad("a tab (YAML indents with spaces)") }
	!/^ *[A-Za-z0-9_-]+:( .*)?$/ { bad("expected key: value") }
	{
		ind = match($0, /[^ ]/) - 1
		key = $0; sub(/^ */, "", key); sub(/:.*/, "", key)
		val = $0; sub(/^[^:]*: ?/, "", val); sub(/^ */, "", val)
	}
	ind == 0 && val == "" {
		if (key in seen) bad("part " key " given twice")
		seen[key] = 1; np++; part[np] = key; prog[np] = "graph-gen"; cnt[np] = -1; opts[np] = ""
		next
	}
	ind == 0 {
		if (key == "seed" && val ~ /^[0-9]+$/) seed = val
		else if (key == "validation" && val ~ /^[0-9]+$/) valid = val
		else if (key == "seed" || key == "validation") bad(key ": " val " is not a count")
		else bad("unknown top-level key " key " (seed, validation, or a part)")
		next
	}
	np == 0 || (pind[np] && ind != pind[np]) { bad("indentation: " key " belongs to no part") }
	{
		pind[np] = ind
		if (!word(val)) bad(key ": \"" val "\" is not a plain word (a range is lo..hi)")
		gsub(/_/, "-", key)
		if ((np, key) in have) bad(key " given twice in part " part[np])
		have[np, key] = 1
		if (key == "program") {
			if (val != "dcbm-gen" && val != "graph-gen") bad("program " val ": dcbm-gen or graph-gen")
			prog[np] = val
		} else if (key == "count") {
			if (val !~ /^[0-9]+$/) bad("count " val " is not a count")
			cnt[np] = val + 0
		} else if (key == "first-id" || key == "output" || key == "o") {
			bad(key ": corpus.sh sets it")
		} else {
			if (key == "seed") pseed[np] = val
			else opts[np] = opts[np] " --" key " " val
		}
	}
	END {
		if (err) exit 1
		NR = 0
		if (np == 0) bad("no parts")
		for (i = 1; i <= np; i++) {
			if (cnt[i] < 0) bad("part " part[i] " has no count")
			N += cnt[i]
		}
		if (N == 0) bad("no graphs")
		V = valid == "" ? int(N * 124 / 1024 + 0.5) : valid + 0
		if (V > N) bad("validation " V " of " N " graphs")
		for (i = 1; i <= np; i++) {	# largest remainders
			q = V * cnt[i] / N; share[i] = int(q); rest[i] = q - share[i]; left += share[i]
		}
		for (left = V - left; left > 0; left--) {
			b = 0
			for (i = 1; i <= np; i++) if (share[i] < cnt[i] && (b == 0 || rest[i] > rest[b])) b = i
			share[b]++; rest[b] = -1
		}
		id = 0
		for (i = 1; i <= np; i++) {
			s = i in pseed ? pseed[i] : seed == "" ? 0 : seed
			printf "%s\ttrain\t%d\t%d\t%s\t-s %s%s\n", part[i], id, cnt[i] - share[i], prog[i], s, opts[i]
			printf "%s\tval\t%d\t%d\t%s\t-s %s%s\n", part[i], id + cnt[i] - share[i], share[i], prog[i], s, opts[i]
			id += cnt[i]
		}
	}' "$1"
}

case "${1-}" in
plan)
	plan "$2"
	;;
files)
	plan "$2" | awk -F '\t' '{ n = split($6, w, " "); for (i = 1; i < n; i++) if (w[i] == "--config") print w[i + 1] }' | sort -u
	;;
build)
	config=$2 out=$3 dir=$3.parts
	bin=${BIN:+$BIN/}
	plan "$config" >"$out.plan"
	rm -rf "$dir"
	mkdir -p "$dir"
	files=
	for split in train val; do
		while IFS='	' read -r part sp first count prog opts; do
			[ "$sp" = "$split" ] && [ "$count" -gt 0 ] || continue
			f="$dir/$part-$split.gs"
			echo "$prog -q -l 0 -j ${THREADS:-2} $opts --first-id $first --count $count -o $f" >&2
			"$bin$prog" -q -l 0 -j "${THREADS:-2}" $opts --first-id "$first" --count "$count" -o "$f"
			files="$files $f"
		done <"$out.plan"
	done
	echo "centrality -q -j ${THREADS:-2} -o $out$files" >&2
	"${bin}centrality" -q -j "${THREADS:-2}" -o "$out" $files
	rm -rf "$dir" "$out.plan"
	;;
*)
	echo "usage: sh corpus.sh plan|files CONFIG, or build CONFIG OUT" >&2
	exit 2
	;;
esac
