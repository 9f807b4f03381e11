#!/usr/bin/env bash
# The float kernels' inner loops as the aarch64 release build compiles them, read from
# `objdump -d` (no ARM hardware needed): for the direct convolution, the 1x1 product and the
# Winograd tile-major product of each vector kernel set, the innermost loop with the most vector
# multiply-adds (the full register block) and its instructions, loads and stack accesses.
#
#   bash scripts/aarch64.sh build          # the release objects under .build/aarch64
#   bash Benchmarks/arm-inner-loops.sh     # the table (Benchmarks/PERFORMANCE.md)
#   bash Benchmarks/arm-inner-loops.sh OBJECT...   # other objects (any vector set's .o)
#
# Columns: fmla (4-lane fused multiply-adds per iteration: per kernel tap, per channel),
# instructions and load instructions per iteration, instructions per fmla, fmla per load, and
# loads or stores addressed from sp or x29 (a spill, or a stack array, inside the loop).
# Last: how many innermost loops with an fmla these kernels have (every block and tail, and the
# direct convolution's fused-pool and stride-2 forms) and which of them touch the stack (none
# expected; the transforms' loops keep small arrays there by design and are not counted).
set -euo pipefail
cd "$(dirname "$0")/.."
objects=("$@")
if [ ${#objects[@]} -eq 0 ]; then
    dir=.build/aarch64/aarch64-unknown-linux-gnu/release/CDarknetKernels.build
    objects=("$dir/generic/VectorPortable.c.o" "$dir/arm/VectorNEON.c.o")
fi
for o in "${objects[@]}"; do [ -f "$o" ] || { echo "no $o: run bash scripts/aarch64.sh build first" >&2; exit 1; }; done
objdump=$(command -v llvm-objdump || command -v aarch64-linux-gnu-objdump) ||
    { echo "needs llvm-objdump or aarch64-linux-gnu-objdump (binutils-aarch64-linux-gnu)" >&2; exit 1; }

for o in "${objects[@]}"; do
    "$objdump" -d --no-show-raw-insn "$o"
done | awk '
function hex(s,   i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
# The innermost loops (a backward branch whose range holds no other) of the function just read.
function flush(   i, j, k, inner, fm, ld, st, sp, ins, m) {
    if (fname == "") return
    for (i = 1; i <= nl; i++) {
        inner = 1
        for (j = 1; j <= nl; j++)
            if (j != i && lo[j] >= lo[i] && hi[j] <= hi[i] && !(lo[j] == lo[i] && hi[j] == hi[i])) inner = 0
        if (!inner) continue
        fm = ld = st = sp = ins = 0
        for (k = 1; k <= ni; k++) {
            if (addr[k] < lo[i] || addr[k] > hi[i]) continue
            ins++; m = mn[k]
            if (m == "fmla" && op[k] ~ /\.4s/) fm++
            if (m ~ /^ld/) ld++
            if (m ~ /^st/) st++
            if (m ~ /^(ld|st)/ && op[k] ~ /\[(sp|x29)[],]/) sp++
        }
        if (fm == 0) continue
        if (sp > 0 && fname ~ /^swiftdarknet_(convolve_direct|convolve_direct_maxpool2|convolve_stride2|pointwise|winograd_products_tile_major)_/)
            spills = spills sprintf("\n  %s: a loop of %d fmla with %d stack accesses", fname, fm, sp)
        if (fname ~ /^swiftdarknet_(convolve_direct|convolve_direct_maxpool2|convolve_stride2|pointwise|winograd_products_tile_major)_/) loops++
        if (match(fname, /_[a-z0-9]+$/) && !(substr(fname, RSTART + 1) in order)) {
            order[substr(fname, RSTART + 1)] = ++sets; set_name[sets] = substr(fname, RSTART + 1)
        }
        if (fm > best_fm[fname] || (fm == best_fm[fname] && ins < best_ins[fname])) {
            best_fm[fname] = fm; best_ins[fname] = ins; best_ld[fname] = ld; best_sp[fname] = sp
        }
    }
}
/^[0-9a-f]+ <.*>:$/ { flush(); fname = substr($2, 2, length($2) - 3); ni = 0; nl = 0; next }
/^ +[0-9a-f]+:/ {
    a = hex(substr($1, 1, length($1) - 1))
    ni++; addr[ni] = a; mn[ni] = $2; op[ni] = ""
    for (k = 3; k <= NF; k++) op[ni] = op[ni] " " $k
    if ($2 ~ /^(b|b\..*|cbz|cbnz|tbz|tbnz)$/)
        for (k = 3; k <= NF; k++)
            if ($k ~ /^0x[0-9a-f]+$/ && hex(substr($k, 3)) <= a) { nl++; lo[nl] = hex(substr($k, 3)); hi[nl] = a }
}
END {
    flush()
    n = split("convolve_direct:direct convolution (tap)|pointwise:pointwise (channel)|winograd_products_tile_major:Winograd products (channel)", kernels, "|")
    printf "%-31s %-9s %5s %6s %6s %8s %9s %6s\n", "inner loop", "set", "fmla", "instr", "loads", "instr/", "fmla/", "stack"
    printf "%-31s %-9s %5s %6s %6s %8s %9s %6s\n", "", "", "", "", "", "fmla", "load", ""
    for (i = 1; i <= n; i++) {
        split(kernels[i], part, ":")
        for (j = 1; j <= sets; j++) {
            set = set_name[j]; f = "swiftdarknet_" part[1] "_" set
            if (!(f in best_fm)) continue
            printf "%-31s %-9s %5d %6d %6d %8.2f %9.2f %6d\n", part[2], set, best_fm[f], best_ins[f], best_ld[f],
                best_ins[f] / best_fm[f], best_fm[f] / best_ld[f], best_sp[f]
        }
    }
    printf "their innermost loops with fmla (all blocks, the fused pool and stride 2 too): %d; with stack accesses: %s\n", loops, spills == "" ? "none" : spills
}'
