/*
 * Float to 8-bit quantization (see darknet_int8.h): tensors with a scale (and zero point), and
 * weights per output row. Round half to even and saturate (Int8Round.h); NaN becomes the code
 * of 0.0.
 */
#include "darknet_int8.h"
#include "Int8Round.h"

#include <math.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#pragma STDC FP_CONTRACT OFF

void swiftdarknet_quantize_u8_portable(const float *x, ptrdiff_t count, float scale, int32_t zero_point,
                                      uint8_t *out) {
    const float zero = (float)zero_point, inverse = 1.0f / scale;
    for (ptrdiff_t i = 0; i < count; i++) out[i] = int8_u8_code(x[i] * inverse, zero);
}

#if defined(__x86_64__)
/* int8_u8_code on 16 floats at a time (Int8Round.h's int8_u8_codes16: the same operations in
 * the same order), so every code equals the portable loop's. */
__attribute__((target("avx512f"))) static void quantize_u8_avx512(const float *x, ptrdiff_t count, float scale,
                                                                   int32_t zero_point, uint8_t *out) {
    const __m512 inverse = _mm512_set1_ps(1.0f / scale), zero = _mm512_set1_ps((float)zero_point);
    ptrdiff_t i = 0;
    for (; i + 16 <= count; i += 16)
        _mm_storeu_si128((__m128i *)(out + i), _mm512_cvtepi32_epi8(int8_u8_codes16(_mm512_loadu_ps(x + i), inverse, zero)));
    swiftdarknet_quantize_u8_portable(x + i, count - i, scale, zero_point, out + i);
}
#endif

void swiftdarknet_quantize_u8(const float *x, ptrdiff_t count, float scale, int32_t zero_point, uint8_t *out) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        quantize_u8_avx512(x, count, scale, zero_point, out);
        return;
    }
#endif
    swiftdarknet_quantize_u8_portable(x, count, scale, zero_point, out);
}

void swiftdarknet_quantize_s8(const float *x, ptrdiff_t count, float scale, int8_t *out) {
    for (ptrdiff_t i = 0; i < count; i++) out[i] = int8_s8_code(x[i] / scale);
}

void swiftdarknet_quantize_rows_symmetric(const float *w, ptrdiff_t m, ptrdiff_t k, int limit, int8_t *q,
                                          float *scales) {
    for (ptrdiff_t row = 0; row < m; row++) {
        const float *source = w + row * k;
        float largest = 0.0f;
        for (ptrdiff_t i = 0; i < k; i++) largest = fmaxf(largest, fabsf(source[i]));
        const float scale = largest / (float)limit;
        scales[row] = scale;
        for (ptrdiff_t i = 0; i < k; i++) {
            const int8_t value = scale == 0.0f ? 0 : int8_s8_code(source[i] / scale);
            q[row * k + i] = value < -limit ? (int8_t)-limit : (value > limit ? (int8_t)limit : value);
        }
    }
}
