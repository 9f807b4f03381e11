/*
 * The byte interleave of the int8 packing (Int8Pack.c) and of the direct convolution's layout
 * (Int8DirectLayout.c): 16 bytes from each of 4 rows into 64 bytes, byte t of column j at
 * out[4 * j + t].
 */
#ifndef SWIFTDARKNET_INT8_INTERLEAVE_H
#define SWIFTDARKNET_INT8_INTERLEAVE_H
#include <stdint.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

static inline void int8_interleave16(const uint8_t *r0, const uint8_t *r1, const uint8_t *r2, const uint8_t *r3,
                                     uint8_t *out) {
#if defined(__x86_64__)
    /* SSE2 (the x86-64 baseline): bytes of rows 0/1 and 2/3 paired, then the pairs paired. */
    const __m128i a = _mm_loadu_si128((const __m128i *)r0), b = _mm_loadu_si128((const __m128i *)r1);
    const __m128i c = _mm_loadu_si128((const __m128i *)r2), d = _mm_loadu_si128((const __m128i *)r3);
    const __m128i low01 = _mm_unpacklo_epi8(a, b), high01 = _mm_unpackhi_epi8(a, b);
    const __m128i low23 = _mm_unpacklo_epi8(c, d), high23 = _mm_unpackhi_epi8(c, d);
    _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi16(low01, low23));
    _mm_storeu_si128((__m128i *)(out + 16), _mm_unpackhi_epi16(low01, low23));
    _mm_storeu_si128((__m128i *)(out + 32), _mm_unpacklo_epi16(high01, high23));
    _mm_storeu_si128((__m128i *)(out + 48), _mm_unpackhi_epi16(high01, high23));
#else
    for (int j = 0; j < 16; j++) {
        out[4 * j] = r0[j];
        out[4 * j + 1] = r1[j];
        out[4 * j + 2] = r2[j];
        out[4 * j + 3] = r3[j];
    }
#endif
}
#endif
