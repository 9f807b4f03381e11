/*
 * The portable bfloat16 set: VDPBF16PS's arithmetic in plain C (reduced.h), the reference the
 * SIMD sets match bit for bit, and the packing every set shares.
 */
#include "ReducedCommon.h"

/* A float32 whose exponent is zero (a denormal) becomes signed zero. */
static inline float flushed(float value) {
    union { float f; uint32_t u; } bits = { value };
    if ((bits.u & 0x7f800000u) == 0) bits.u &= 0x80000000u;
    return bits.f;
}

/* The value of one half of a pair, denormals read as zero. */
static inline float operand(uint32_t pair, int high) {
    return flushed(swiftdarknet_float_from_bf16((uint16_t)(high ? pair >> 16 : pair & 0xffffu)));
}

static void pack_portable(const float *b, long k, long ldb, long columns, uint32_t *pairs) {
    reduced_pack_columns(b, k, ldb, columns, pairs, swiftdarknet_bf16_from_float);
}

void swiftdarknet_bf16_pack_weights(const float *a, long m, long k, uint32_t *pairs) {
    reduced_pack_rows(a, m, k, pairs, swiftdarknet_bf16_from_float);
}

/* One of VDPBF16PS's accumulations, "an FP32 FMA with DAZ in, FTZ out and RNE rounding" (Intel's
   pseudocode): `sum + a * b` rounded once, then flushed. The product of two bfloat16 values is
   exact in double, and so is its sum with a float wherever the rounding to float could tell (a
   term more than 29 binades below the other is far under half an ulp), so the double sum
   rounded to float is the fused result; a tiny product is not flushed before it is added
   (BFloat16KernelTests compare this with the instruction, special values included). */
static inline float accumulate(float sum, float a, float b) {
    return flushed((float)((double)sum + (double)a * (double)b));
}

/* VDPBF16PS on one pair: the high product added first, then the low one. */
static inline float step(float sum, uint32_t w, uint32_t x) {
    sum = accumulate(sum, operand(w, 1), operand(x, 1));
    return accumulate(sum, operand(w, 0), operand(x, 0));
}

static void gemm_portable(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                          float *c, long ldc) {
    reduced_gemm_rows(weights, m, pairs, packed, columns, c, ldc, step);
}

const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_portable = {
    .name = "portable-bf16",
    .architecture = SWIFTDARKNET_ARCH_OTHER,
    .required_extensions = 0,
    .format = SWIFTDARKNET_REDUCED_BF16,
    .reference = SWIFTDARKNET_BF16_PORTABLE,
    .pack = pack_portable,
    .gemm = gemm_portable,
    .pack_weights = swiftdarknet_bf16_pack_weights,
};
