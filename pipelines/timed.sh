#!/bin/sh
# timed.sh - make's SHELL under `make TIMES=1`: runs each recipe line with
# /bin/sh and appends one line to $STAGE_LOG:
#   start (ISO time)  status  wall_s  user_s  sys_s  command (first 1000 bytes)
# user_s and sys_s are the CPU seconds of the recipe's processes (the
# shell's `times`).  Summarised by `make -C pipelines times`.
[ "$1" = -c ] || exec /bin/sh "$@"
log=${STAGE_LOG:?timed.sh: STAGE_LOG is not set}
mkdir -p "$(dirname "$log")"
t0=$(date +%s.%N)
start=$(date +%FT%T)
/bin/sh -c "$2"
rc=$?
t1=$(date +%s.%N)
# the CPU time of this shell's children: the second line of `times`, run
# in this shell (in a command substitution it would see no children)
tf=$(mktemp)
times >"$tf"
# start, status, then "wall user sys" from t0, t1 and "XmY.YYs XmY.YYs"
printf '%s\t%s\t%s\t%s\n' "$start" "$rc" \
	"$(sed -n 2p "$tf" | awk -v a="$t0" -v b="$t1" '{
		for (i = 1; i <= 2; i++) { split($i, t, "m"); sub(/s$/, "", t[2]); c[i] = 60 * t[1] + t[2] }
		printf "%.2f\t%.2f\t%.2f", b - a, c[1], c[2] }')" \
	"$(printf '%s' "$2" | tr '\n\t' '  ' | cut -c1-1000)" >>"$log"
rm -f "$tf"
exit $rc
