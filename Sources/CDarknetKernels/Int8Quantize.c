/*
 * Float to 8-bit quantization (see darknet_int8.h): tensors with a scale (and zero point), and
 * weights per output row. Round half to even (rintf in the default rounding mode), saturating.
 */
#include "darknet_int8.h"

#include <math.h>

#pragma STDC FP_CONTRACT OFF

void swiftdarknet_quantize_u8(const float *x, ptrdiff_t count, float scale, int32_t zero_point, uint8_t *out) {
    const float zero = (float)zero_point;
    for (ptrdiff_t i = 0; i < count; i++) {
        float q = rintf(x[i] / scale) + zero;
        q = fminf(fmaxf(q, 0.0f), 255.0f);  /* fmaxf(NaN, 0) = 0 */
        out[i] = (uint8_t)q;
    }
}

void swiftdarknet_quantize_s8(const float *x, ptrdiff_t count, float scale, int8_t *out) {
    for (ptrdiff_t i = 0; i < count; i++) {
        float q = rintf(x[i] / scale);
        if (q != q) q = 0.0f;  /* NaN: fmaxf would give -128 */
        q = fminf(fmaxf(q, -128.0f), 127.0f);
        out[i] = (int8_t)q;
    }
}

void swiftdarknet_quantize_rows_symmetric(const float *w, ptrdiff_t m, ptrdiff_t k, int8_t *q, float *scales) {
    for (ptrdiff_t row = 0; row < m; row++) {
        const float *source = w + row * k;
        float largest = 0.0f;
        for (ptrdiff_t i = 0; i < k; i++) largest = fmaxf(largest, fabsf(source[i]));
        const float scale = largest / 127.0f;
        scales[row] = scale;
        if (scale == 0.0f) {
            for (ptrdiff_t i = 0; i < k; i++) q[row * k + i] = 0;
            continue;
        }
        for (ptrdiff_t i = 0; i < k; i++) {
            float value = rintf(source[i] / scale);
            value = fminf(fmaxf(value, -127.0f), 127.0f);
            q[row * k + i] = (int8_t)value;
        }
    }
}
