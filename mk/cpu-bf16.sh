#!/bin/sh
# cpu-bf16.sh - has this CPU bf16 matrix instructions that oneDNN may use?
# Exit 0 when /proc/cpuinfo lists avx512_bf16 or amx_bf16 and
# ONEDNN_MAX_CPU_ISA (oneDNN's cap, which PyTorch's copy of oneDNN reads
# too) is unset or does not stop below AVX512_CORE_BF16; otherwise print
# why on standard output and exit 1.
#   sh mk/cpu-bf16.sh
# The CPU's flags, not a program's answer: the tests ask the programs
# whether they multiply in bf16 and use this to tell a CPU without bf16
# (skip) from a regression (fail); bench/gcn_step.sh skips the PyTorch
# bf16 row where it says no (bf16 emulated in software is no comparison).
# Another kind of CPU (another architecture, or x86 with only AVX2-VNNI-2's
# bf16 conversions) gets 1: where a program has bf16 there anyway, the tests
# run its bf16 checks all the same.
set -u
flags=$(sed -n 's/^flags[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
case " $flags " in
*" avx512_bf16 "* | *" amx_bf16 "*) ;;
*)
	echo "this CPU has no bf16 matrix instructions (no avx512_bf16 or amx_bf16 in /proc/cpuinfo)"
	exit 1 ;;
esac
# oneDNN's names, case-insensitive: from AVX512_CORE_BF16 up, every cap
# keeps the bf16 dot products (AVX512_CORE_FP16, *_AMX*, AVX10_*)
isa=$(printf '%s' "${ONEDNN_MAX_CPU_ISA:-}" | tr '[:lower:]' '[:upper:]')
case $isa in
"" | ALL | DEFAULT | *BF16* | *FP16* | *AMX* | AVX10*) exit 0 ;;
esac
echo "ONEDNN_MAX_CPU_ISA=$ONEDNN_MAX_CPU_ISA keeps oneDNN below AVX512_CORE_BF16"
exit 1
