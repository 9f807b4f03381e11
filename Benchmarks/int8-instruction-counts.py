#!/usr/bin/env python3
"""Instructions per multiply in the arm64 int8 and 16-bit float GEMMs' hot loops, read from an aarch64
object's disassembly.

    python3 Benchmarks/int8-instruction-counts.py [OBJDUMP] [BUILD]

OBJDUMP: an llvm-objdump (default: the cached aarch64 compiler root's, else `llvm-objdump`);
BUILD: the aarch64 release build's CDarknetKernels objects (default
.build/aarch64/aarch64-unknown-linux-gnu/release/CDarknetKernels.build, what
`scripts/aarch64.sh build` leaves). For every function of each integer set's object: the GEMM
(int8_gemm_<set>), the direct convolutions (int8_direct_<set>, int16_direct_<set>) and a tile
function the compiler kept out of line; of each 16-bit float set's (fhm-fp16, fmla-fp16,
bfdot-bf16, bfmmla-bf16), its GEMM: of the innermost loops that multiply (a backward branch's span holding no
other multiplying loop), those with over half the most products per iteration (the lanes of each
multiply: sdot/usdot 16 per .4s, smlal/smlal2 4 per .4s, vector mla/mul one per lane, madd/mul 1;
bfmmla 16, bfdot 8 per .4s, fmlal/fmlal2 4, fmla 8 per .8h); its instructions, including loads and loop control,
and instructions per product.
"""
import os
import re
import subprocess
import sys

home = os.path.expanduser("~")
default_objdump = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.join(home, ".cache")),
                               "swift-darknet/aarch64/compiler/usr/libexec/swift/bin/llvm-objdump")
objdump = sys.argv[1] if len(sys.argv) > 1 else (default_objdump if os.path.exists(default_objdump) else "llvm-objdump")
build = sys.argv[2] if len(sys.argv) > 2 else ".build/aarch64/aarch64-unknown-linux-gnu/release/CDarknetKernels.build"
objects = [("portable", "generic/IntegerPortable.c.o"), ("neon", "arm/IntegerNEON.c.o"),
           ("dotprod", "arm/IntegerDotProd.c.o"), ("i8mm", "arm/IntegerI8MM.c.o"),
           ("fhm-fp16", "arm/ReducedHalfFHM.c.o"), ("fmla-fp16", "arm/ReducedHalfFMLA.c.o"),
           ("bfdot-bf16", "arm/ReducedBFDOT.c.o"),
           ("bfmmla-bf16", "arm/ReducedBFMMLA.c.o")]

LANES = {"16b": 16, "8b": 8, "8h": 8, "4h": 4, "4s": 4, "2s": 2, "2d": 2}


def products(mnemonic, operands):
    """Multiplications one instruction performs (0 for the rest)."""
    destination = operands.split(",")[0].strip()
    arrangement = destination.split(".")[-1] if "." in destination else ""
    if mnemonic in ("sdot", "udot", "usdot", "sudot"):
        return 4 * LANES.get(arrangement, 0)
    if mnemonic in ("smmla", "ummla", "usmmla"):
        return 32
    if mnemonic == "bfmmla":       # 2x2 sums of 4 products
        return 16
    if mnemonic == "bfdot":        # 2 products per lane
        return 2 * LANES.get(arrangement, 0)
    if mnemonic in ("fmlal", "fmlal2", "fmla"):
        return LANES.get(arrangement, 1) if arrangement else 1
    if mnemonic in ("smlal", "smlal2", "umlal", "umlal2", "smull", "smull2", "umull", "umull2", "mla", "mls", "mul"):
        return LANES.get(arrangement, 1) if arrangement else 1
    if mnemonic in ("madd", "msub", "smaddl", "umaddl", "smull", "mul"):
        return 1
    return 0


def functions(path):
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", "--mattr=+dotprod,+i8mm,+bf16,+fp16fml,+fullfp16", path], check=True, capture_output=True, text=True).stdout
    result, name = {}, None
    for line in text.splitlines():
        header = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if header:
            name = header.group(1)
            result[name] = []
            continue
        instruction = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if name and instruction:
            result[name].append((int(instruction.group(1), 16), instruction.group(2), instruction.group(3)))
    return result


def hot_loops(instructions):
    """(instructions, products) of each innermost multiplying loop."""
    index = {address: i for i, (address, _, _) in enumerate(instructions)}
    loops = []
    for i, (address, mnemonic, operands) in enumerate(instructions):
        if mnemonic == "b" or mnemonic.startswith("b.") or mnemonic in ("cbz", "cbnz", "tbz", "tbnz"):
            target = re.search(r"0x([0-9a-f]+)", operands) or re.match(r"\s*([0-9a-f]+)\s", operands)
            if not target:
                continue
            start = int(target.group(1), 16)
            if start <= address and start in index:
                body = instructions[index[start]:i + 1]
                count = sum(products(m, o) for _, m, o in body)
                if count:
                    loops.append((index[start], i, len(body), count))
    return [(size, count) for (s, e, size, count) in loops
            if not any((s2, e2) != (s, e) and s <= s2 and e2 <= e for (s2, e2, _, _) in loops)]


print("| set | function | loop instructions | products per iteration | instructions per product |")
print("|---|---|---|---|---|")
for name, relative in objects:
    path = os.path.join(build, relative)
    if not os.path.exists(path):
        print(f"| {name} | (no {path}) | | | |")
        continue
    for function, instructions in functions(path).items():
        loops = hot_loops(instructions)
        if not loops:
            continue
        # The tile's loops (epilogues multiply an index or two).
        most = max(count for _, count in loops)
        if most < 4:
            continue
        for size, count in sorted({loop for loop in loops if 2 * loop[1] > most}):
            print(f"| {name} | {function} | {size} | {count} | {size / count:.3f} |")
