# mask-check.awk - the text output of one masked edge list keeps the
# sampling's promises (tests/cli/mask-edges.test.sh); prints what is wrong
# on one "mask_check: ..." line and exits 1 otherwise.
#   awk -v P=POSITIVES -v N=NEGATIVES -f mask-check.awk EDGELIST TEXTOUT
#   masked graph: edges of the original, u < v, no repeats
#   masked_edges= r and masked + r = original edges
#   pairs: P positives (label 1) then N negatives (label 0), u < v, no
#   repeats in either orientation; positives are original edges missing from
#   the masked graph, negatives are not edges of the original
function bad(s) { print "mask_check: " s; err = 1; exit 1 }
FNR == NR {
	if ($0 ~ /^#/ || NF < 2) next
	a = $1 + 0; b = $2 + 0
	if (a == b) next
	if (a > b) { t = a; a = b; b = t }
	if (!((a, b) in orig)) m++
	orig[a, b] = 1
	next
}
/^@graph/ { sec = "g"; for (i = 1; i <= NF; i++) if ($i ~ /^masked_edges=/) { split($i, kv, "="); r = kv[2] + 0 }; next }
/^@pairs/ { sec = "p"; next }
/^[@#]/ { sec = ""; next }
sec == "g" {
	if ($1 + 0 >= $2 + 0) bad("masked edge " $1 " " $2 " not u < v")
	if (!(($1, $2) in orig)) bad("masked edge " $1 " " $2 " not in the original")
	if (($1, $2) in kept) bad("masked edge " $1 " " $2 " repeated")
	kept[$1, $2] = 1; mk++
}
sec == "p" {
	if ($1 + 0 >= $2 + 0) bad("pair " $1 " " $2 " not u < v")
	if (($1, $2) in seen) bad("pair " $1 " " $2 " repeated")
	seen[$1, $2] = 1
	if ($3 == 1) {
		if (nn > 0) bad("positive after a negative")
		if (!(($1, $2) in orig) || (($1, $2) in kept)) bad("positive " $1 " " $2 " was not removed")
		np++
	} else if ($3 == 0) {
		if (($1, $2) in orig) bad("negative " $1 " " $2 " is an edge")
		nn++
	} else bad("label " $3)
}
END {
	if (err) exit 1
	if (mk + r != m) bad("kept " mk " + removed " r " != " m " edges")
	if (np != P) bad(np " positives, want " P)
	if (nn != N) bad(nn " negatives, want " N)
}
