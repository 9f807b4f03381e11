/*
 * The Advanced SIMD (NEON) vector kernel set: 4 lanes, as the portable set, blocked for
 * aarch64's 32 vector registers instead of x86's 16. The sums are the portable set's, in the
 * same order and fused the same way (clang contracts `acc + x * w` into fmla on aarch64 for
 * both); only the register blocks differ.
 *
 * The blocks were chosen by reading the release object's inner loops (Swift 6.0.3's clang 17,
 * -O2; Benchmarks/arm-inner-loops.sh prints them, Benchmarks/PERFORMANCE.md has the table):
 *   direct convolution  8 filters x 3 vectors: 24 accumulators + 3 input vectors + the weights'
 *                       scalars, 24 fmla per 11 loads per tap (the portable 4 x 2: 8 per 6), no
 *                       stack access in the loop. 8 divides every filter count of Darknet's
 *                       3x3 layers, so the one-filter tail rarely runs.
 *   tile-major products 6 tiles x 4 vectors (16 filters, one block of the weights' layout): 24
 *                       accumulators + 4 weight vectors; clang multiplies by lanes of the tiles'
 *                       loaded scalars (fmla by element, two tiles per ldp), 24 fmla per 8 loads
 *                       per channel (the portable 2 x 4: 8 per 6). 7 tiles would need 28
 *                       accumulators + 4 weights + a tile register: 33.
 * PIN_WEIGHT_BROADCAST 0: with the broadcast pinned in a register (what x86's AVX2 block needs
 * against a spill) clang broadcasts each weight with ld1r, which takes no register offset, so
 * the loop spends an add per filter on addresses (48 instructions per 24 fmla); unpinned it
 * loads the scalar with `ldr s, [base, offset]` and multiplies by its lane (40 per 24).
 */
#if defined(__aarch64__)
#define SUFFIX neon
#define ARCHITECTURE SWIFTDARKNET_ARCH_ARM64
#define REQUIRED_EXTENSIONS SWIFTDARKNET_CPU_NEON
#define LANES 4
#define FILTER_BLOCK 8
#define VECTOR_BLOCK 3
#define PIN_WEIGHT_BROADCAST 0
#define WINOGRAD_TILE_BLOCK 6
#define WINOGRAD_FILTER_VECTORS 4
#define SPLAT_INDICES 0, 0, 0, 0
#define EVEN_INDICES 0, 2, 4, 6
#define ODD_INDICES 1, 3, 5, 7
#include "../generic/VectorKernelsTemplate.h"
#endif
