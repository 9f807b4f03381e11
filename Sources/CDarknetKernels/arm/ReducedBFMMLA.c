/*
 * The arm64 bfloat16 set by matrix multiply-accumulate (FEAT_BF16, like BFDOT: Apple M2 and
 * later, Graviton 3/4, Neoverse V1/V2/N2). BFMMLA multiplies a 2x4 block of weights (two rows,
 * two K pairs) by a 4x2 block of activations (two K pairs, two columns) into a 2x2 block of
 * float32 sums. Without FEAT_EBF16 (or with FPCR.EBF clear, as threads start) it adds, per sum,
 * the first pair by BFDotAdd and then the second (the Arm ARM's BFMatMulAdd; qemu's
 * gvec_bfmmla): the same steps in the same K order as the BFDOT set, so its sums equal the
 * portable arm64 set's bit for bit. The Arm ARM expects it to multiply at least as fast as two
 * BFDOT and aims higher (Arm's own bfloat16 GEMMs take it on Neoverse); no arm64 hardware here
 * has measured that.
 *
 * The operands are the other sets' (reduced.h): weight rows of pairs, activation rows of
 * pairs. Two 64-bit loads make a row pair's 2x4 block; ZIP1/ZIP2 of two activation rows make
 * two column pairs' 4x2 blocks. An odd last pair of K goes through one BFDOT on operands laid
 * out as the 2x2 block (BFMMLA would add a padded pair: on a flushed -0 sum that gives +0). A
 * tile keeps ROW_PAIRS x VECTORS x 2 sums blocks: 8 rows x 8 columns, 16 registers.
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

/* Four packed pairs of columns j..j+3 of `row`, of which the first `last` (1..4) are read, the
 * rest zero. */
static inline __attribute__((always_inline)) uint32x4_t columns4(const uint32_t *row, long last) {
    if (last == 4) return vld1q_u32(row);
    uint32_t ragged[4] = {0};
    memcpy(ragged, row, (size_t)last * sizeof(uint32_t));
    return vld1q_u32(ragged);
}

/* Writes the sums of rows r0 (and r1 unless NULL) at columns j..j+4*VECTORS (the last vector
 * `last` wide) from 2x2 blocks: block[v][h] holds (r0, 4v + 2h), (r0, 4v + 2h + 1), (r1, ...). */
static inline __attribute__((always_inline)) void store_rows(const int VECTORS, float32x4_t block[2][2], float *r0,
                                                             float *r1, long last) {
    for (int v = 0; v < VECTORS; v++) {
        const float64x2_t low = vreinterpretq_f64_f32(block[v][0]), high = vreinterpretq_f64_f32(block[v][1]);
        const float32x4_t first = vreinterpretq_f32_f64(vzip1q_f64(low, high));
        const float32x4_t second = vreinterpretq_f32_f64(vzip2q_f64(low, high));
        const long width = v == VECTORS - 1 ? last : 4;
        if (width == 4) {
            vst1q_f32(r0 + 4 * v, first);
            if (r1) vst1q_f32(r1 + 4 * v, second);
        } else {
            float spill[4];
            vst1q_f32(spill, first);
            memcpy(r0 + 4 * v, spill, (size_t)width * sizeof(float));
            if (r1) {
                vst1q_f32(spill, second);
                memcpy(r1 + 4 * v, spill, (size_t)width * sizeof(float));
            }
        }
    }
}

/* Rows of ROW_PAIRS pairs (row 2r at rows[2r]; `rows[2r + 1] == rows[2r]` for a missing second
 * row, whose sums are not written) times columns j..j+4*VECTORS, of which the last vector holds
 * `last` (1..4). */
static inline __attribute__((always_inline)) void tile(const int ROW_PAIRS, const int VECTORS, const uint32_t *rows[8],
                                                       long pairs, const uint32_t *packed, long columns, long j,
                                                       long last, float *c[8]) {
    float32x4_t sum[4][2][2];
    for (int r = 0; r < ROW_PAIRS; r++)
        for (int v = 0; v < VECTORS; v++) sum[r][v][0] = sum[r][v][1] = vdupq_n_f32(0);
    long p = 0;
    for (; p + 2 <= pairs; p += 2) {
        const uint32_t *x = packed + p * columns + j;
        bfloat16x8_t in[2][2];
        for (int v = 0; v < VECTORS; v++) {
            const long width = v == VECTORS - 1 ? last : 4;
            const uint32x4_t even = columns4(x + 4 * v, width), odd = columns4(x + columns + 4 * v, width);
            in[v][0] = vreinterpretq_bf16_u32(vzip1q_u32(even, odd));
            in[v][1] = vreinterpretq_bf16_u32(vzip2q_u32(even, odd));
        }
        for (int r = 0; r < ROW_PAIRS; r++) {
            const bfloat16x8_t w = vreinterpretq_bf16_u32(vcombine_u32(vld1_u32(rows[2 * r] + p), vld1_u32(rows[2 * r + 1] + p)));
            for (int v = 0; v < VECTORS; v++) {
                sum[r][v][0] = vbfmmlaq_f32(sum[r][v][0], w, in[v][0]);
                sum[r][v][1] = vbfmmlaq_f32(sum[r][v][1], w, in[v][1]);
            }
        }
    }
    if (p < pairs) {
        const uint32_t *x = packed + p * columns + j;
        bfloat16x8_t in[2][2];
        for (int v = 0; v < VECTORS; v++) {
            const uint32x4_t pair = columns4(x + 4 * v, v == VECTORS - 1 ? last : 4);
            in[v][0] = vreinterpretq_bf16_u32(vcombine_u32(vget_low_u32(pair), vget_low_u32(pair)));
            in[v][1] = vreinterpretq_bf16_u32(vcombine_u32(vget_high_u32(pair), vget_high_u32(pair)));
        }
        for (int r = 0; r < ROW_PAIRS; r++) {
            const bfloat16x8_t w = vreinterpretq_bf16_u32(vcombine_u32(vdup_n_u32(rows[2 * r][p]), vdup_n_u32(rows[2 * r + 1][p])));
            for (int v = 0; v < VECTORS; v++) {
                sum[r][v][0] = vbfdotq_f32(sum[r][v][0], w, in[v][0]);
                sum[r][v][1] = vbfdotq_f32(sum[r][v][1], w, in[v][1]);
            }
        }
    }
    for (int r = 0; r < ROW_PAIRS; r++) {
        float *second = rows[2 * r + 1] == rows[2 * r] ? NULL : c[2 * r + 1] + j;
        store_rows(VECTORS, sum[r], c[2 * r] + j, second, last);
    }
}

/* ROW_PAIRS pairs of rows over every column. */
static inline __attribute__((always_inline)) void row_block(const int ROW_PAIRS, const uint32_t *rows[8], long pairs,
                                                            const uint32_t *packed, long columns, float *c[8]) {
    long j = 0;
    for (; j + 8 <= columns; j += 8) tile(ROW_PAIRS, 2, rows, pairs, packed, columns, j, 4, c);
    const long left = columns - j;
    if (left > 4) tile(ROW_PAIRS, 2, rows, pairs, packed, columns, j, left - 4, c);
    else if (left > 0) tile(ROW_PAIRS, 1, rows, pairs, packed, columns, j, left, c);
}

static void gemm_bfmmla(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                        float *c, long ldc) {
    const uint32_t *rows[8];
    float *out[8];
    long i = 0;
    for (; i + 8 <= m; i += 8) {
        for (int r = 0; r < 8; r++) rows[r] = weights + (i + r) * pairs, out[r] = c + (i + r) * ldc;
        row_block(4, rows, pairs, packed, columns, out);
    }
    for (; i < m; i += 2) {
        const long second = i + 1 < m ? i + 1 : i;  /* an odd last row is read twice, written once */
        rows[0] = weights + i * pairs, rows[1] = weights + second * pairs;
        out[0] = c + i * ldc, out[1] = c + second * ldc;
        row_block(1, rows, pairs, packed, columns, out);
    }
}

#pragma clang attribute pop
#else
SWIFTDARKNET_REDUCED_ELSEWHERE(bf16_pack_neon, gemm_bfmmla)
#endif

const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_bfmmla = {
    .name = "bfmmla-bf16",
    .architecture = SWIFTDARKNET_ARCH_ARM64,
    .required_extensions = SWIFTDARKNET_CPU_NEON | SWIFTDARKNET_CPU_BF16,
    .format = SWIFTDARKNET_REDUCED_BF16,
    .reference = SWIFTDARKNET_BF16_PORTABLE_ARM,
    .pack = bf16_pack_neon,
    .gemm = gemm_bfmmla,
    .pack_weights = swiftdarknet_bf16_pack_weights,
};
