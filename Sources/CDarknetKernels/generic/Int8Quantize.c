/*
 * Float to 8-bit quantization (see CDarknetKernels/integer.h): tensors with a scale (and zero point), and
 * weights per output row. Round half to even and saturate (IntegerRound.h); NaN becomes the code
 * of 0.0.
 */
#include "CDarknetKernels/integer.h"
#include "IntegerRound.h"
#include "PortableEntries.h"

#include <math.h>

#pragma STDC FP_CONTRACT OFF

void swiftdarknet_quantize_u8_portable(const float *x, ptrdiff_t count, float scale, int32_t zero_point,
                                      uint8_t *out) {
    const float zero = (float)zero_point, inverse = 1.0f / scale;
    for (ptrdiff_t i = 0; i < count; i++) out[i] = int8_u8_code(x[i] * inverse, zero);
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
