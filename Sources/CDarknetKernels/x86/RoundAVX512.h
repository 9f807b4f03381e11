/*
 * generic/IntegerRound.h's codes on 16 AVX-512 lanes: the same operations in the same order, so
 * every code equals the scalar one.
 */
#ifndef SWIFTDARKNET_ROUND_AVX512_H
#define SWIFTDARKNET_ROUND_AVX512_H
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
