# infer-check.awk - the inputs and the readings of tests/cli/infer.test.sh
# (inference: items without a class), one operation a call:
#   awk -v op=OP [-v NAME=VALUE ...] -f infer-check.awk FILE...
# Text streams in, lines out; the test compares the lines.  The inputs:
#   classes [every=K] [row=R] value=V   the class rows of a node graph's
#       tensor: every K-th row (K = 1: all) or the R-th (1-based) set to V;
#       "@end ..." becomes "@end" (the counts and crc no longer hold)
#   features2     a node graph with a 'features' tensor of two columns,
#                 degree and its square (deg,deg2), added at the end
#   attributes    a node graph of 600 nodes with an 'attributes' tensor of
#                 two columns (a, b) added at the end
#   attributes1   the same with the attributes cut to their first column
#   median        a stream of graphs: the median of their mean degrees
#                 (m/n; the int(N/2)-th smallest, as the test takes it)
#   graph-labels med=X  the graphs labelled 1 when m/n > X, else 0; every
#                 8th graph (id % 8 == 7) gets no label record, graph 3 -1
#   link-labels   a graph's edges as "u v class" lines: class deg u + deg v
#                 > 20, every 7th edge -1
# The readings:
#   rows [run=R]  the rows of the predictions records (of run R only) as
#                 "item true pred score..." lines
#   cfg key=K     the value of config key K of a text-form model
#   unknown [classes=C]  the items whose true class is -1, sorted (with C:
#                 only those predicted as one of the classes 0..C-1)
#   negative      the rows whose true class is below 0
#   unlabelled    a text stream's node classes: the 0-based rows that are -1
#   graph-unlabelled  the 0-based places of the graphs without a label of 0
#                 or more
#   link-unlabelled  "u v class" lines: the 0-based lines of class -1
#   agree PRED SAVED  every row of SAVED is in PRED with the same true and
#                 predicted class and the same probabilities to 1e-6:
#                 prints the rows compared, after "bad ITEM" at the first
#                 that is not
#   among LIST ROWS  the items of ROWS that LIST (one item a line) names
#   best          the runs with the best val_acc, as " id id ... " (on a
#                 tie gcn-adapt keeps the lower validation loss, which the
#                 predictions do not carry)
#   accuracy      rows: the share of those with a class (true >= 0) whose
#                 prediction is right, "%.6f"
#   tsv want=A,B,...  an evalf1 tsv report's lines whose first fields are
#                 the text A, B, ... ('*' any)
#   strip         a text stream without its provenance (@pg, pg=), header
#                 and end lines: two runs' records compared
BEGIN {
	if (op == "tsv")
		FS = "\t"
	if (op == "features2" || op == "attributes")
		OFS = "\t"
	if (op == "unknown")
		sorted = "sort -n"
}

# ---- inputs ----
op == "classes" {
	if (/^@tensor/) { t = 1; print; next }
	if (/^@end /) { print "@end"; next }
	if (/^@/) t = 0
	else if (t && (++r == row || (every && r % every == 0))) $0 = value
	print
	next
}
op == "features2" {
	if (/^@graph/) { n = $3; sub(/nodes=/, "", n); n += 0; g = 1; print; next }
	if (/^@/) g = 0
	else if (g) { d[$1]++; d[$2]++ }
	if (/^@end/) {
		print "@tensor id=0 name=features rows=" n " cols=2 type=f64 columns=deg,deg2"
		for (v = 0; v < n; v++)
			print d[v] + 0, d[v] * d[v]
		print "@end"
		next
	}
	print
	next
}
op == "attributes" {
	if (/^@end/) {
		print "@tensor id=0 name=attributes rows=600 cols=2 type=f64 columns=a,b"
		for (i = 0; i < 600; i++)
			print i % 3, (i * 7) % 5
		print "@end"
		next
	}
	print
	next
}
op == "attributes1" {
	if (/name=attributes/) {
		sub(/cols=2 type=f64 columns=a,b/, "cols=1 type=f64 columns=a")
		a = 1
		print
		next
	}
	if (/^@/) a = 0
	else if (a) $0 = $1
	print
	next
}
op == "median" && /^@graph/ {
	n = $3; m = $4; sub(/nodes=/, "", n); sub(/edges=/, "", m)
	deg[++k] = m / n ""
	next
}
op == "graph-labels" {
	if (/^@graph/) {
		label()
		g = $2; sub(/id=/, "", g); n = $3; m = $4; sub(/nodes=/, "", n); sub(/edges=/, "", m)
		lab = (m / n > med)
	}
	if (/^@end/) { label(); print "@end"; next }
	print
	next
}
op == "link-labels" {
	if (/^@/) { on = /^@graph/; next }
	if (on && NF == 2) { eu[++n] = $1; ev[n] = $2; d[$1]++; d[$2]++ }
	next
}

# ---- readings ----
op == "rows" {
	if (/^@tensor/) { on = / name=predictions / && (run == "" || $2 == "id=" run); next }
	if (/^@/) on = 0
	else if (on) print
	next
}
op == "cfg" && index($0, key ": ") == 1 { print substr($0, length(key) + 3); next }
op == "unknown" && $2 == -1 && (classes == "" || ($3 >= 0 && $3 < classes)) { print $1 | sorted; next }
op == "negative" && $2 < 0 { print; next }
op == "unlabelled" {
	if (/^@tensor/) { t = 1; next }
	if (/^@/) t = 0
	else if (t) { if ($1 == -1) print n; n++ }
	next
}
op == "graph-unlabelled" {
	if (/^@graph/) { g = $2; sub(/id=/, "", g); has[g] = 0; ids[++k] = g }
	if (/^@label/) { v = $4; sub(/value=/, "", v); if (v >= 0) has[g] = 1 }
	next
}
op == "link-unlabelled" && $3 == -1 { print NR - 1; next }
op == "agree" && NR == FNR { pred[$1] = $0; next }
op == "agree" {
	split(pred[$1], q)
	if (!($1 in pred) || q[2] != $2 || q[3] != $3) { print "bad", $1; exit }
	for (c = 4; c <= NF; c++) {
		diff = q[c] - $c
		if (diff < -1e-6 || diff > 1e-6) { print "bad", $1; exit }
	}
	n++
	next
}
op == "among" && NR == FNR { in2[$1] = 1; next }
op == "among" && $1 in in2 { print $1; next }
op == "best" && /^@tensor .*name=predictions/ {
	id = $2; sub(/id=/, "", id); v = $0
	sub(/.* val_acc=/, "", v); sub(/ .*/, "", v); acc[id] = v + 0; ids[++k] = id
	if (k == 1 || v + 0 > best) best = v + 0
	next
}
op == "accuracy" && $2 >= 0 { n++; ok += $2 == $3; next }
op == "tsv" {
	if (!nw)	# want is set on the command line, after BEGIN
		nw = split(want, w, ",")
	for (i = 1; i <= nw; i++)
		if (w[i] != "*" && $i "" != w[i] "") next
	print
	next
}
op == "strip" && !/^@pg/ && !/^@end/ && !/^##/ { sub(/ pg=[0-9a-f]*/, ""); print; next }

# every 8th graph has no label record, graph 3 a negative one
function label() {
	if (g != "" && g % 8 != 7)
		print "@label id=" g " name=label value=" (g == 3 ? -1 : lab)
}

END {
	if (op == "median") {
		for (i = 2; i <= k; i++)	# insertion sort, numeric
			for (j = i; j > 1 && deg[j] + 0 < deg[j - 1] + 0; j--) {
				t = deg[j]; deg[j] = deg[j - 1]; deg[j - 1] = t
			}
		print deg[int(k / 2)]
	} else if (op == "link-labels") {
		for (i = 1; i <= n; i++)
			print eu[i], ev[i], (i % 7 == 0 ? -1 : d[eu[i]] + d[ev[i]] > 20)
	} else if (op == "graph-unlabelled") {
		for (i = 1; i <= k; i++)
			if (!has[ids[i]])
				print i - 1
	} else if (op == "agree") {
		print n + 0
	} else if (op == "best") {
		s = " "
		for (i = 1; i <= k; i++)
			if (acc[ids[i]] == best)
				s = s ids[i] " "
		print s
	} else if (op == "accuracy") {
		printf "%.6f\n", ok / n
	}
}
