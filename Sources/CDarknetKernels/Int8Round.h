/*
 * Float to 8-bit (and 16-bit) codes shared by the quantizers and the GEMM's u8 epilogue, so all
 * give the same code for the same float, in scalar code and on 16 AVX-512 lanes alike. rint in
 * the default rounding mode (half to even) by adding and subtracting 1.5 * 2^23 (exact for
 * |v| < 2^22; v is clamped first, to +-1024 for 8-bit codes, which changes no code), so it
 * vectorises with SSE2 alone instead of calling rintf per value.
 */
#ifndef SWIFTDARKNET_INT8_ROUND_H
#define SWIFTDARKNET_INT8_ROUND_H

/* rint of v clamped to +-bound (bound < 2^22), NaN -> 0. */
static inline __attribute__((always_inline)) float int8_round_within(float v, float bound) {
    const float magic = 12582912.0f; /* 1.5 * 2^23 */
    v = v == v ? v : 0.0f;           /* NaN -> 0 */
    v = v < -bound ? -bound : (v > bound ? bound : v);
    return (v + magic) - magic;
}

static inline __attribute__((always_inline)) float int8_round(float v) { return int8_round_within(v, 1024.0f); }

/* clamp(rint(v) + zero, 0, 255): the u8 code of v = x * (1 / scale). */
static inline __attribute__((always_inline)) uint8_t int8_u8_code(float v, float zero) {
    float q = int8_round(v) + zero;
    q = q < 0.0f ? 0.0f : (q > 255.0f ? 255.0f : q);
    return (uint8_t)(int32_t)q;
}

#if defined(__x86_64__)
#include <immintrin.h>

/* int8_round_within on 16 lanes, the same operations in the same order. */
__attribute__((target("avx512f"), always_inline)) static inline __m512 int8_round_within16(__m512 v, __m512 bound) {
    v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v);
    v = _mm512_min_ps(_mm512_max_ps(v, _mm512_sub_ps(_mm512_setzero_ps(), bound)), bound);
    const __m512 magic = _mm512_set1_ps(12582912.0f);
    return _mm512_sub_ps(_mm512_add_ps(v, magic), magic);
}

/* int8_u8_code(x * inverse, zero) on 16 lanes, as 32-bit integers. */
__attribute__((target("avx512f"), always_inline)) static inline __m512i int8_u8_codes16(__m512 x, __m512 inverse,
                                                                                     __m512 zero) {
    const __m512 v = int8_round_within16(_mm512_mul_ps(x, inverse), _mm512_set1_ps(1024.0f));
    return _mm512_cvttps_epi32(
        _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(v, zero), _mm512_setzero_ps()), _mm512_set1_ps(255.0f)));
}
#endif

/* clamp(rint(v), -128, 127). */
static inline __attribute__((always_inline)) int8_t int8_s8_code(float v) {
    float q = int8_round(v);
    q = q < -128.0f ? -128.0f : (q > 127.0f ? 127.0f : q);
    return (int8_t)(int32_t)q;
}
#endif
