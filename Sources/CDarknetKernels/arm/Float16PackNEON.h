/*
 * The arm64 float16 sets' packing (reduced.h), shared by the FHM and FMLA sets: FCVTN rounds
 * eight floats at a time to halves (nearest even with the default FPCR, as
 * swiftdarknet_fp16_from_float), ST2 interleaves the even-K and odd-K rows into pairs. Only
 * included on aarch64.
 */
#ifndef SWIFTDARKNET_FLOAT16_PACK_NEON_H
#define SWIFTDARKNET_FLOAT16_PACK_NEON_H
#include <arm_neon.h>

#include "../generic/ReducedCommon.h"

/* Columns j..j+8 of a float row as halves. */
static inline float16x8_t halves(const float *row) {
    return vcombine_f16(vcvt_f16_f32(vld1q_f32(row)), vcvt_f16_f32(vld1q_f32(row + 4)));
}

static void fp16_pack_neon(const float *b, long k, long ldb, long columns, uint32_t *pairs) {
    for (long p = 0; p < (k + 1) / 2; p++) {
        const float *even = b + 2 * p * ldb, *odd = 2 * p + 1 < k ? even + ldb : NULL;
        uint32_t *out = pairs + p * columns;
        long j = 0;
        for (; j + 8 <= columns; j += 8) {
            float16x8x2_t pair;
            pair.val[0] = halves(even + j);
            pair.val[1] = odd ? halves(odd + j) : vreinterpretq_f16_u16(vdupq_n_u16(0));
            vst2q_f16((float16_t *)(out + j), pair);
        }
        for (; j < columns; j++) {
            uint32_t low = swiftdarknet_fp16_from_float(even[j]);
            uint32_t high = odd ? swiftdarknet_fp16_from_float(odd[j]) : 0;
            out[j] = low | high << 16;
        }
    }
}
#endif
