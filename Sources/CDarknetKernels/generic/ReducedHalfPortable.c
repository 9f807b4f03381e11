/*
 * The portable float16 set: FMLAL's arithmetic in plain C (reduced.h), the reference the SIMD
 * float16 sets match bit for bit, and the weights' packing every float16 set shares.
 *
 * The product of two halves has at most 22 significant bits and an exponent within float32's
 * normal range, so it is exact in float32: fmaf(w, x, sum) rounds once, as FMLAL does.
 */
#include "ReducedPack.h"

#include <math.h>

static void pack_portable(const float *b, long k, long ldb, long columns, uint32_t *pairs) {
    reduced_pack_columns(b, k, ldb, columns, pairs, swiftdarknet_fp16_from_float);
}

void swiftdarknet_fp16_pack_weights(const float *a, long m, long k, uint32_t *pairs) {
    reduced_pack_rows(a, m, k, pairs, swiftdarknet_fp16_from_float);
}

static inline float low_half(uint32_t pair) { return swiftdarknet_float_from_fp16((uint16_t)(pair & 0xffffu)); }
static inline float high_half(uint32_t pair) { return swiftdarknet_float_from_fp16((uint16_t)(pair >> 16)); }

static void gemm_portable(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                          float *c, long ldc) {
    /* Each output's sums in K order, a row of them at a time: the packed rows are read in order. */
    for (long i = 0; i < m; i++) {
        float *sums = c + i * ldc;
        for (long j = 0; j < columns; j++) sums[j] = 0;
        for (long p = 0; p < pairs; p++) {
            const uint32_t w = weights[i * pairs + p];
            const float low = low_half(w), high = high_half(w);
            const uint32_t *x = packed + p * columns;
            for (long j = 0; j < columns; j++) sums[j] = fmaf(high, high_half(x[j]), fmaf(low, low_half(x[j]), sums[j]));
        }
    }
}

const swiftdarknet_bf16_kernels swiftdarknet_fp16_kernels_portable = {
    .name = "portable-fp16",
    .architecture = SWIFTDARKNET_ARCH_OTHER,
    .required_extensions = 0,
    .format = SWIFTDARKNET_REDUCED_FP16,
    .reference = SWIFTDARKNET_FP16_PORTABLE,
    .pack = pack_portable,
    .gemm = gemm_portable,
    .pack_weights = swiftdarknet_fp16_pack_weights,
};
