/*
 * support/Primitives.h's operations on x86-64, with SSE2 (the architecture's baseline).
 */
#include <immintrin.h>
#include <stdint.h>

#define KEEP_IN_REGISTER(v) __asm__ volatile("" : "+x"(v))
#define SPIN_PAUSE() _mm_pause()

/* Bytes of rows 0/1 and 2/3 paired, then the pairs paired. */
static inline void int8_interleave16(const uint8_t *r0, const uint8_t *r1, const uint8_t *r2, const uint8_t *r3,
                                     uint8_t *out) {
    const __m128i a = _mm_loadu_si128((const __m128i *)r0), b = _mm_loadu_si128((const __m128i *)r1);
    const __m128i c = _mm_loadu_si128((const __m128i *)r2), d = _mm_loadu_si128((const __m128i *)r3);
    const __m128i low01 = _mm_unpacklo_epi8(a, b), high01 = _mm_unpackhi_epi8(a, b);
    const __m128i low23 = _mm_unpacklo_epi8(c, d), high23 = _mm_unpackhi_epi8(c, d);
    _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi16(low01, low23));
    _mm_storeu_si128((__m128i *)(out + 16), _mm_unpackhi_epi16(low01, low23));
    _mm_storeu_si128((__m128i *)(out + 32), _mm_unpacklo_epi16(high01, high23));
    _mm_storeu_si128((__m128i *)(out + 48), _mm_unpackhi_epi16(high01, high23));
}

/* The even bytes masked to 16-bit lanes and packed. */
static inline void int8_even_bytes16(const uint8_t *source, uint8_t *out) {
    const __m128i even = _mm_set1_epi16(0x00FF);
    const __m128i low = _mm_and_si128(_mm_loadu_si128((const __m128i *)source), even);
    const __m128i high = _mm_and_si128(_mm_loadu_si128((const __m128i *)(source + 16)), even);
    _mm_storeu_si128((__m128i *)out, _mm_packus_epi16(low, high));
}
