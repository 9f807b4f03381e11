/*
 * The arm64 bfloat16 sets' packing (reduced.h), shared by the BFDOT and BFMMLA sets: four
 * columns at a time, each float rounded as swiftdarknet_bf16_from_float (VCVTNEPS2BF16's
 * rounding, in integer operations: BFCVTN would keep denormals, which both instructions then
 * flush, so the x86 and arm64 operands are the same bits). Only included on aarch64.
 */
#ifndef SWIFTDARKNET_BFLOAT16_PACK_NEON_H
#define SWIFTDARKNET_BFLOAT16_PACK_NEON_H
#include <arm_neon.h>

#include "../generic/ReducedCommon.h"

/* Four floats as bfloat16 in the low halves of 32-bit lanes, rounded as swiftdarknet_bf16_from_float. */
static inline uint32x4_t rounded(float32x4_t values) {
    const uint32x4_t u = vreinterpretq_u32_f32(values);
    const uint32x4_t magnitude = vandq_u32(u, vdupq_n_u32(0x7fffffffu));
    const uint32x4_t nan = vcgtq_u32(magnitude, vdupq_n_u32(0x7f800000u));
    const uint32x4_t denormal = vceqq_u32(vandq_u32(u, vdupq_n_u32(0x7f800000u)), vdupq_n_u32(0));
    const uint32x4_t lsb = vandq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(1));
    const uint32x4_t normal = vshrq_n_u32(vaddq_u32(u, vaddq_u32(vdupq_n_u32(0x7fffu), lsb)), 16);
    const uint32x4_t quiet = vorrq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(0x40u));
    const uint32x4_t zero = vandq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(0x8000u));
    return vbslq_u32(nan, quiet, vbslq_u32(denormal, zero, normal));
}

static void bf16_pack_neon(const float *b, long k, long ldb, long columns, uint32_t *pairs) {
    for (long p = 0; p < (k + 1) / 2; p++) {
        const float *even = b + 2 * p * ldb, *odd = 2 * p + 1 < k ? even + ldb : NULL;
        uint32_t *out = pairs + p * columns;
        long j = 0;
        for (; j + 4 <= columns; j += 4) {
            const uint32x4_t low = rounded(vld1q_f32(even + j));
            const uint32x4_t high = odd ? vshlq_n_u32(rounded(vld1q_f32(odd + j)), 16) : vdupq_n_u32(0);
            vst1q_u32(out + j, vorrq_u32(low, high));
        }
        for (; j < columns; j++) {
            uint32_t low = swiftdarknet_bf16_from_float(even[j]);
            uint32_t high = odd ? swiftdarknet_bf16_from_float(odd[j]) : 0;
            out[j] = low | high << 16;
        }
    }
}

#endif
