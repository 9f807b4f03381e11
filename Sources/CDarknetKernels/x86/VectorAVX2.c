/*
 * The AVX2 + FMA vector kernel set: 8 lanes.
 */
#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#define SUFFIX avx2
#define ARCHITECTURE SWIFTDARKNET_ARCH_X86_64
#define REQUIRED_EXTENSIONS (SWIFTDARKNET_CPU_AVX2 | SWIFTDARKNET_CPU_FMA)
#define LANES 8
/* 8 accumulators, 2 input vectors and a broadcast: 11 of the 16 registers. A 4 x 3 block fits
 * exactly (16), but clang keeps a second broadcast live and spills an accumulator to the stack on
 * every tap, a store-to-load chain (YOLOv3-tiny's first two convolutions 1.5x slower than with
 * this block; Benchmarks/PERFORMANCE.md). */
#define FILTER_BLOCK 4
#define VECTOR_BLOCK 2
#define WINOGRAD_TILE_BLOCK 6
#define WINOGRAD_FILTER_VECTORS 2
#define SPLAT_INDICES 0, 0, 0, 0, 0, 0, 0, 0
#define EVEN_INDICES 0, 2, 4, 6, 8, 10, 12, 14
#define ODD_INDICES 1, 3, 5, 7, 9, 11, 13, 15
#include "../generic/VectorKernelsTemplate.h"
#pragma clang attribute pop
#endif
