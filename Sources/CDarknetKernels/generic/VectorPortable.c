/*
 * The portable vector kernel set: 4 lanes, the baseline of every architecture this library
 * builds for (SSE2 on x86-64, Advanced SIMD on arm64).
 */
#define SUFFIX portable
#define ARCHITECTURE SWIFTDARKNET_ARCH_OTHER
#define REQUIRED_EXTENSIONS 0
#define LANES 4
#define FILTER_BLOCK 4
#define VECTOR_BLOCK 2
#define WINOGRAD_TILE_BLOCK 2
#define WINOGRAD_FILTER_VECTORS 4
#define SPLAT_INDICES 0, 0, 0, 0
#define EVEN_INDICES 0, 2, 4, 6
#define ODD_INDICES 1, 3, 5, 7
#include "VectorKernelsTemplate.h"
