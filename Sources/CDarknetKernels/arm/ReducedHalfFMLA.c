/*
 * The arm64 float16 set in half sums (FEAT_FP16 without FEAT_FHM: Cortex-A76 and Raspberry Pi
 * 5, Neoverse N1 and Graviton 2, among others): FCVTN packs the activations
 * to halves (Float16PackNEON.h); FMLA by element multiplies 8 columns' halves by one weight half
 * and adds into 8 half sums, one rounding to half per product; every
 * SWIFTDARKNET_FP16_HALF_SUM_PAIRS pairs FCVTL/FCVTL2 widen the half sums and FADD adds them
 * into float32 sums (reduced.h), so the results equal the portable half-sum set bit for bit.
 * A block's 4 pairs of a weight row are one 8-half vector, whose lanes the 8 FMLAs take in K
 * order. A tile is ROWS rows x 8 columns: ROWS half sums and 2 x ROWS float32 sums; whole
 * blocks of whole tiles take the straight path, a tile's last block and narrower tiles (their
 * columns copied per block) the careful one.
 *
 * On another architecture the table is still compiled, so that a plan made there for an arm64
 * CPU names this set (`info --plan --cpu arm64-fp16`); its functions then trap. A network only
 * loads a plan whose kernels the running CPU executes.
 */
#include "../generic/ReducedCommon.h"

#if defined(__aarch64__)
#include <arm_neon.h>
#include <string.h>

#pragma clang attribute push(__attribute__((target("fullfp16"))), apply_to = function)

#include "Float16PackNEON.h"

_Static_assert(SWIFTDARKNET_FP16_HALF_SUM_PAIRS == 4, "a block's weights are one vector of 8 halves");

/* Loops over a tile's rows, unrolled so that its half and float32 sums stay in registers (rolled,
 * clang kept the float32 sums on the stack and reloaded them at every block). */
#define UNROLLED _Pragma("clang loop unroll(full)")

/* Pair q of a block (q a literal): 8 columns' low halves (K = 2p) by weight lane 2q, then their
 * high halves by lane 2q + 1, into each row's half sums. `x` is the block's first pair of the
 * tile's columns, `stride` words between pairs. */
#define PAIR(q)                                                                                  \
    do {                                                                                         \
        const float16x8x2_t in = vld2q_f16((const float16_t *)(x + (q) * stride));               \
        UNROLLED for (int r = 0; r < ROWS; r++) {                                                \
            sum[r] = vfmaq_laneq_f16(sum[r], in.val[0], w[r], 2 * (q));                          \
            sum[r] = vfmaq_laneq_f16(sum[r], in.val[1], w[r], 2 * (q) + 1);                      \
        }                                                                                        \
    } while (0)

/* One block of `count` (1..4) pairs for ROWS rows and 8 columns: the half sums from +0, then
 * widened and added into the float32 sums `low` (columns 0-3) and `high` (4-7). */
static inline __attribute__((always_inline)) void block(const int ROWS, const uint32_t *weights, long pairs, long first,
                                                        long count, const uint32_t *x, long stride,
                                                        float32x4_t low[4], float32x4_t high[4]) {
    float16x8_t w[4], sum[4];
    UNROLLED for (int r = 0; r < ROWS; r++) {
        const uint32_t *row = weights + r * pairs + first;
        if (count == 4) {
            w[r] = vld1q_f16((const float16_t *)row);
        } else {
            uint32_t part[4] = {0};
            memcpy(part, row, (size_t)count * sizeof(uint32_t));
            w[r] = vld1q_f16((const float16_t *)part);
        }
        sum[r] = vreinterpretq_f16_u16(vdupq_n_u16(0));
    }
    PAIR(0);
    if (count == 4) {
        PAIR(1);
        PAIR(2);
        PAIR(3);
    } else {
        if (count > 1) PAIR(1);
        if (count > 2) PAIR(2);
    }
    UNROLLED for (int r = 0; r < ROWS; r++) {
        low[r] = vaddq_f32(low[r], vcvt_f32_f16(vget_low_f16(sum[r])));
        high[r] = vaddq_f32(high[r], vcvt_high_f32_f16(sum[r]));
    }
}
#undef PAIR

/* Rows i..i+ROWS (weights from `weights`) times columns j..j+width (width 1..8) of `packed`,
 * every pair of K; a tile narrower than 8 columns copies each block's columns first. */
static inline __attribute__((always_inline)) void tile(const int ROWS, const uint32_t *weights, long pairs,
                                                       const uint32_t *packed, long columns, long j, long width,
                                                       float *c, long ldc) {
    float32x4_t low[4], high[4];
    UNROLLED for (int r = 0; r < ROWS; r++) low[r] = high[r] = vdupq_n_f32(0);
    long first = 0;
    if (width == 8) {
        for (; first + 4 <= pairs; first += 4) block(ROWS, weights, pairs, first, 4, packed + first * columns + j, columns, low, high);
        if (first < pairs) block(ROWS, weights, pairs, first, pairs - first, packed + first * columns + j, columns, low, high);
    } else {
        for (; first < pairs; first += 4) {
            const long count = pairs - first < 4 ? pairs - first : 4;
            uint32_t ragged[4][8] = {{0}};
            for (long q = 0; q < count; q++) memcpy(ragged[q], packed + (first + q) * columns + j, (size_t)width * sizeof(uint32_t));
            block(ROWS, weights, pairs, first, count, ragged[0], 8, low, high);
        }
    }
    UNROLLED for (int r = 0; r < ROWS; r++) {
        float *row = c + r * ldc + j;
        if (width < 8) {
            float spill[8];
            vst1q_f32(spill, low[r]);
            vst1q_f32(spill + 4, high[r]);
            memcpy(row, spill, (size_t)width * sizeof(float));
        } else {
            vst1q_f32(row, low[r]);
            vst1q_f32(row + 4, high[r]);
        }
    }
}

/* Rows i..i+ROWS over every column. */
static inline __attribute__((always_inline)) void row_block(const int ROWS, const uint32_t *weights, long pairs,
                                                            const uint32_t *packed, long columns, float *c, long ldc) {
    long j = 0;
    for (; j + 8 <= columns; j += 8) tile(ROWS, weights, pairs, packed, columns, j, 8, c, ldc);
    if (j < columns) tile(ROWS, weights, pairs, packed, columns, j, columns - j, c, ldc);
}

static void gemm_fmla(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                      float *c, long ldc) {
    long i = 0;
    for (; i + 4 <= m; i += 4) row_block(4, weights + i * pairs, pairs, packed, columns, c + i * ldc, ldc);
    for (; i < m; i++) row_block(1, weights + i * pairs, pairs, packed, columns, c + i * ldc, ldc);
}

#pragma clang attribute pop
#else
SWIFTDARKNET_REDUCED_ELSEWHERE(fp16_pack_neon, gemm_fmla)
#endif

const swiftdarknet_bf16_kernels swiftdarknet_fp16_kernels_fmla = {
    .name = "fmla-fp16",
    .architecture = SWIFTDARKNET_ARCH_ARM64,
    .required_extensions = SWIFTDARKNET_CPU_NEON | SWIFTDARKNET_CPU_FP16,
    .format = SWIFTDARKNET_REDUCED_FP16,
    .reference = SWIFTDARKNET_FP16_PORTABLE_HALF_SUMS,
    .pack = fp16_pack_neon,
    .gemm = gemm_fmla,
    .pack_weights = swiftdarknet_fp16_pack_weights,
};
