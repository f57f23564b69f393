# modelcfg.awk - a text-form model (gcn-train -t) with one config key set:
#   awk -v key=features.command -v val='nodefeat -q' -f modelcfg.awk m.txt
# sets the line "key: ..." of the model record's config to key: "val" (the
# value as given: no quotes or backslashes in it), fixes the record's
# config=N (the bytes of the config lines) and ends the segment with a
# bare @end (no checksum to match).  For tests that hand a program a model
# someone edited.
/^@model / { hold = $0; inc = 1; cfg = ""; next }
inc && /^@/ {
	inc = 0
	sub(/ config=[0-9]+ /, " config=" length(cfg) " ", hold)
	printf "%s\n%s", hold, cfg
}
inc {
	if (index($0, key ": ") == 1)
		$0 = key ": \"" val "\""
	cfg = cfg $0 "\n"
	next
}
/^@end/ { print "@end"; next }
{ print }
