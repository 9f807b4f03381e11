/*
 * The arm64 bfloat16 set (FEAT_BF16: Apple M2 and later, Graviton 3/4, Neoverse V1/V2/N2):
 * BFDOT by broadcast weight pair on packed bfloat16 pairs (reduced.h), each lane adding the
 * pair's two products to its float32 sum as BFDotAdd does (FPCR.EBF clear: round to odd,
 * denormals flushed), so the sums equal the portable arm64 set's bit for bit. The packing is the
 * x86 sets' rounding (VCVTNEPS2BF16's, in integer operations), not BFCVTN, which keeps
 * denormals. Output columns are the lanes: a tile keeps ROWS x 4 registers of sums (16 columns).
 *
 * On another architecture the table is still compiled, so that a plan made there for an arm64
 * CPU names this set; its functions then trap. A network only loads a plan whose kernels the
 * running CPU executes.
 */
#include "../generic/ReducedCommon.h"

#if defined(__aarch64__)
#include <arm_neon.h>
#include <string.h>

#include "BFloat16PackNEON.h"

#pragma clang attribute push(__attribute__((target("bf16"))), apply_to = function)

/* Rows i..i+ROWS times columns j..j+4*VECTORS, of which the last vector holds `last` (1..4). */
static inline __attribute__((always_inline)) void tile(const int ROWS, const int VECTORS, const uint32_t *weights,
                                                       long pairs, const uint32_t *packed, long columns, long j,
                                                       long last, float *c, long ldc) {
    float32x4_t sum[4][4];
    for (int r = 0; r < ROWS; r++)
        for (int v = 0; v < VECTORS; v++) sum[r][v] = vdupq_n_f32(0);
    uint32_t ragged[4] = {0};
    for (long p = 0; p < pairs; p++) {
        const uint32_t *x = packed + p * columns + j;
        bfloat16x8_t in[4];
        for (int v = 0; v < VECTORS; v++) {
            const uint32_t *source = x + 4 * v;
            if (v == VECTORS - 1 && last < 4) {
                memcpy(ragged, source, (size_t)last * sizeof(uint32_t));
                source = ragged;
            }
            in[v] = vreinterpretq_bf16_u32(vld1q_u32(source));
        }
        for (int r = 0; r < ROWS; r++) {
            const bfloat16x8_t w = vreinterpretq_bf16_u32(vdupq_n_u32(weights[r * pairs + p]));
            for (int v = 0; v < VECTORS; v++) sum[r][v] = vbfdotq_f32(sum[r][v], in[v], w);
        }
    }
    for (int r = 0; r < ROWS; r++) {
        float *row = c + r * ldc + j;
        for (int v = 0; v < VECTORS; v++) {
            if (v == VECTORS - 1 && last < 4) {
                float spill[4];
                vst1q_f32(spill, sum[r][v]);
                memcpy(row + 4 * v, spill, (size_t)last * sizeof(float));
            } else {
                vst1q_f32(row + 4 * v, sum[r][v]);
            }
        }
    }
}

/* Rows i..i+ROWS over every column. */
static inline __attribute__((always_inline)) void row_block(const int ROWS, const uint32_t *weights, long pairs,
                                                            const uint32_t *packed, long columns, float *c, long ldc) {
    long j = 0;
    for (; j + 16 <= columns; j += 16) tile(ROWS, 4, weights, pairs, packed, columns, j, 4, c, ldc);
    const long left = columns - j;
    if (left == 0) return;
    const long vectors = (left + 3) / 4, last = left - (vectors - 1) * 4;
    if (vectors == 4) tile(ROWS, 4, weights, pairs, packed, columns, j, last, c, ldc);
    else if (vectors == 3) tile(ROWS, 3, weights, pairs, packed, columns, j, last, c, ldc);
    else if (vectors == 2) tile(ROWS, 2, weights, pairs, packed, columns, j, last, c, ldc);
    else tile(ROWS, 1, weights, pairs, packed, columns, j, last, c, ldc);
}

static void gemm_bfdot(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                       float *c, long ldc) {
    long i = 0;
    for (; i + 4 <= m; i += 4) row_block(4, weights + i * pairs, pairs, packed, columns, c + i * ldc, ldc);
    for (; i < m; i++) row_block(1, weights + i * pairs, pairs, packed, columns, c + i * ldc, ldc);
}

#pragma clang attribute pop
#else
SWIFTDARKNET_REDUCED_ELSEWHERE(bf16_pack_neon, gemm_bfdot)
#endif

const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_bfdot = {
    .name = "bfdot-bf16",
    .architecture = SWIFTDARKNET_ARCH_ARM64,
    .required_extensions = SWIFTDARKNET_CPU_NEON | SWIFTDARKNET_CPU_BF16,
    .format = SWIFTDARKNET_REDUCED_BF16,
    .reference = SWIFTDARKNET_BF16_PORTABLE_ARM,
    .pack = bf16_pack_neon,
    .gemm = gemm_bfdot,
    .pack_weights = swiftdarknet_bf16_pack_weights,
};
