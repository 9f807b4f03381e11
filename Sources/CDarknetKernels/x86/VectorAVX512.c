/*
 * The AVX-512F + FMA vector kernel set: 16 lanes, with its own quantizer and 16-bit layout
 * (the same codes as the portable ones, 16 at a time).
 */
#if defined(__x86_64__)
#include "../generic/Int16Layout.h"
#include "../generic/PortableEntries.h"
#include "RoundAVX512.h"

#include <immintrin.h>

#pragma clang attribute push(__attribute__((target("avx512f,fma"))), apply_to = function)

#pragma STDC FP_CONTRACT OFF

/* int8_u8_code on 16 floats at a time (RoundAVX512.h's int8_u8_codes16: the same operations in
 * the same order), so every code equals the portable loop's. */
static void quantize_u8_avx512(const float *x, ptrdiff_t count, float scale, int32_t zero_point, uint8_t *out) {
    const __m512 inverse = _mm512_set1_ps(1.0f / scale), zero = _mm512_set1_ps((float)zero_point);
    ptrdiff_t i = 0;
    for (; i + 16 <= count; i += 16)
        _mm_storeu_si128((__m128i *)(out + i), _mm512_cvtepi32_epi8(int8_u8_codes16(_mm512_loadu_ps(x + i), inverse, zero)));
    swiftdarknet_quantize_u8_portable(x + i, count - i, scale, zero_point, out + i);
}

static inline __attribute__((always_inline)) __m512i int16_codes16(__m512 x, __m512 inverse, __m512 limit) {
    return _mm512_cvttps_epi32(int8_round_within16(_mm512_mul_ps(x, inverse), limit));
}

/* 16 pixels at a time, the portable steps; the rest by the portable loop. */
static void int16_pixels_avx512(const float *x0, const float *x1, ptrdiff_t count, float inverse_scale, float limit,
                                uint8_t *out) {
    const __m512 inverse = _mm512_set1_ps(inverse_scale), bound = _mm512_set1_ps(limit);
    const __m512i low = _mm512_set1_epi32(0xFFFF);
    ptrdiff_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const __m512i first = _mm512_and_si512(int16_codes16(_mm512_loadu_ps(x0 + i), inverse, bound), low);
        const __m512i second = x1 ? _mm512_slli_epi32(int16_codes16(_mm512_loadu_ps(x1 + i), inverse, bound), 16)
                                  : _mm512_setzero_si512();
        _mm512_storeu_si512((void *)(out + i * 4), _mm512_or_si512(first, second));
    }
    int16_pixels_portable(x0 + i, x1 ? x1 + i : NULL, count - i, inverse_scale, limit, out + i * 4);
}

static void int16_direct_layout_avx512(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                       ptrdiff_t padding, ptrdiff_t stride, float inverse_scale, int32_t limit,
                                       uint8_t *layout, ptrdiff_t pair_begin, ptrdiff_t pair_end) {
    int16_direct_layout(input, channels, height, width, padding, stride, inverse_scale, limit, layout, pair_begin,
                        pair_end, int16_pixels_avx512);
}

#pragma STDC FP_CONTRACT ON

#define SUFFIX avx512
#define ARCHITECTURE SWIFTDARKNET_ARCH_X86_64
#define REQUIRED_EXTENSIONS (SWIFTDARKNET_CPU_AVX512F | SWIFTDARKNET_CPU_FMA)
#define LANES 16
#define FILTER_BLOCK 8
#define VECTOR_BLOCK 3
#define WINOGRAD_TILE_BLOCK 8
#define WINOGRAD_FILTER_VECTORS 3
#define SPLAT_INDICES 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define EVEN_INDICES 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30
#define ODD_INDICES 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31
#define QUANTIZE_U8 quantize_u8_avx512
#define INT16_DIRECT_LAYOUT int16_direct_layout_avx512
#include "../generic/VectorKernelsTemplate.h"
#pragma clang attribute pop
#endif
