/*
 * The arm64 float16 set (FEAT_FP16 + FEAT_FHM: Apple M1 and later, Cortex-A78/X1, Neoverse
 * N2/V1/V2; not Cortex-A76, which has FP16 without FHM: ReducedHalfFMLA.c): FCVTN packs the
 * activations to halves (Float16PackNEON.h), FMLAL/FMLAL2 multiply them by broadcast weight halves and add into float32 lanes, one fused
 * rounding per product (reduced.h), so the sums equal the portable set's fmaf bit for bit.
 * Output columns are the lanes: LD2 splits 8 packed pairs into the even-K and odd-K halves of 8
 * columns; FMLAL takes columns 0-3 of them, FMLAL2 columns 4-7. A tile keeps ROWS x 4 registers
 * of sums (16 columns).
 *
 * On another architecture the table is still compiled, so that a plan made there for an arm64
 * CPU names this set (`info --plan --cpu arm64-fp16-fhm`); its functions then trap. A network
 * only loads a plan whose kernels the running CPU executes.
 */
#include "../generic/ReducedCommon.h"

#if defined(__aarch64__)
#include <arm_neon.h>
#include <string.h>

#pragma clang attribute push(__attribute__((target("fullfp16,fp16fml"))), apply_to = function)

#include "Float16PackNEON.h"

/* Rows i..i+ROWS (weights from `weights`) times columns j..j+8*VECTORS of `packed`, of which
 * the last vector holds `last` (1..8) columns; every pair of K. */
static inline __attribute__((always_inline)) void tile(const int ROWS, const int VECTORS, const uint32_t *weights,
                                                       long pairs, const uint32_t *packed, long columns, long j,
                                                       long last, float *c, long ldc) {
    float32x4_t sum[4][4];
    for (int r = 0; r < ROWS; r++)
        for (int v = 0; v < 2 * VECTORS; v++) sum[r][v] = vdupq_n_f32(0);
    uint32_t ragged[8] = {0};
    for (long p = 0; p < pairs; p++) {
        const uint32_t *x = packed + p * columns + j;
        float16x8x2_t in[2];
        for (int v = 0; v < VECTORS; v++) {
            const uint32_t *source = x + 8 * v;
            if (v == VECTORS - 1 && last < 8) {
                memcpy(ragged, source, (size_t)last * sizeof(uint32_t));
                source = ragged;
            }
            in[v] = vld2q_f16((const float16_t *)source);
        }
        for (int r = 0; r < ROWS; r++) {
            const uint32_t w = weights[r * pairs + p];
            const float16x8_t low = vreinterpretq_f16_u16(vdupq_n_u16((uint16_t)(w & 0xffffu)));
            const float16x8_t high = vreinterpretq_f16_u16(vdupq_n_u16((uint16_t)(w >> 16)));
            for (int v = 0; v < VECTORS; v++) {
                sum[r][2 * v] = vfmlalq_low_f16(sum[r][2 * v], in[v].val[0], low);
                sum[r][2 * v + 1] = vfmlalq_high_f16(sum[r][2 * v + 1], in[v].val[0], low);
                sum[r][2 * v] = vfmlalq_low_f16(sum[r][2 * v], in[v].val[1], high);
                sum[r][2 * v + 1] = vfmlalq_high_f16(sum[r][2 * v + 1], in[v].val[1], high);
            }
        }
    }
    for (int r = 0; r < ROWS; r++) {
        float *row = c + r * ldc + j;
        for (int v = 0; v < VECTORS; v++) {
            if (v == VECTORS - 1 && last < 8) {
                float spill[8];
                vst1q_f32(spill, sum[r][2 * v]);
                vst1q_f32(spill + 4, sum[r][2 * v + 1]);
                memcpy(row + 8 * v, spill, (size_t)last * sizeof(float));
            } else {
                vst1q_f32(row + 8 * v, sum[r][2 * v]);
                vst1q_f32(row + 8 * v + 4, sum[r][2 * v + 1]);
            }
        }
    }
}

/* Rows i..i+ROWS over every column. */
static inline __attribute__((always_inline)) void row_block(const int ROWS, const uint32_t *weights, long pairs,
                                                            const uint32_t *packed, long columns, float *c, long ldc) {
    long j = 0;
    for (; j + 16 <= columns; j += 16) tile(ROWS, 2, weights, pairs, packed, columns, j, 8, c, ldc);
    const long left = columns - j;
    if (left > 8) tile(ROWS, 2, weights, pairs, packed, columns, j, left - 8, c, ldc);
    else if (left > 0) tile(ROWS, 1, weights, pairs, packed, columns, j, left, c, ldc);
}

static void gemm_fhm(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                     float *c, long ldc) {
    long i = 0;
    for (; i + 4 <= m; i += 4) row_block(4, weights + i * pairs, pairs, packed, columns, c + i * ldc, ldc);
    for (; i < m; i++) row_block(1, weights + i * pairs, pairs, packed, columns, c + i * ldc, ldc);
}

#pragma clang attribute pop
#else
SWIFTDARKNET_REDUCED_ELSEWHERE(fp16_pack_neon, gemm_fhm)
#endif

const swiftdarknet_bf16_kernels swiftdarknet_fp16_kernels_fhm = {
    .name = "fhm-fp16",
    .architecture = SWIFTDARKNET_ARCH_ARM64,
    .required_extensions = SWIFTDARKNET_CPU_NEON | SWIFTDARKNET_CPU_FP16 | SWIFTDARKNET_CPU_FHM,
    .format = SWIFTDARKNET_REDUCED_FP16,
    .reference = SWIFTDARKNET_FP16_PORTABLE,
    .pack = fp16_pack_neon,
    .gemm = gemm_fhm,
    .pack_weights = swiftdarknet_fp16_pack_weights,
};
