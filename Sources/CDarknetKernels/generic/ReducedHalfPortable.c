/*
 * The portable float16 set: FMLAL's arithmetic in plain C (reduced.h), the reference the SIMD
 * float16 sets match bit for bit, and the weights' packing every float16 set shares.
 *
 * The product of two halves has at most 22 significant bits and an exponent within float32's
 * normal range, so it is exact in float32: fmaf(w, x, sum) rounds once, as FMLAL does.
 */
#include "ReducedCommon.h"

#include <math.h>

static void pack_portable(const float *b, long k, long ldb, long columns, uint32_t *pairs) {
    reduced_pack_columns(b, k, ldb, columns, pairs, swiftdarknet_fp16_from_float);
}

void swiftdarknet_fp16_pack_weights(const float *a, long m, long k, uint32_t *pairs) {
    reduced_pack_rows(a, m, k, pairs, swiftdarknet_fp16_from_float);
}

static inline float low_half(uint32_t pair) { return swiftdarknet_float_from_fp16((uint16_t)(pair & 0xffffu)); }
static inline float high_half(uint32_t pair) { return swiftdarknet_float_from_fp16((uint16_t)(pair >> 16)); }

/* FMLAL then FMLAL2 on one pair: the low product, then the high one, each fused. The products
 * are exact, so sum + w * x rounds once as well, and has the same value; it is what runs where
 * fmaf is a library call (x86-64 without FMA: it made the set 5x slower). On arm64 fmaf is one
 * FMADD, which also propagates NaNs as FMLAL does (with an infinity times zero after a NaN sum,
 * the default NaN, where an addition keeps the sum's). */
static inline float step(float sum, uint32_t w, uint32_t x) {
#if defined(__aarch64__) || defined(__FMA__)
    return fmaf(high_half(w), high_half(x), fmaf(low_half(w), low_half(x), sum));
#else
    const float low = low_half(w) * low_half(x), high = high_half(w) * high_half(x);
    return (sum + low) + high;
#endif
}

static void gemm_portable(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                          float *c, long ldc) {
    reduced_gemm_rows(weights, m, pairs, packed, columns, c, ldc, step);
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
