/*
 * The 16-bit direct convolution's input layout (CDarknetKernels/integer.h): CHW floats quantized
 * symmetrically into channel pairs of padded planes. The pixel loop is a parameter, so a target
 * with wider vectors (x86/VectorAVX512.c) builds the same layout with its own: every target
 * writes the same codes.
 */
#ifndef SWIFTDARKNET_INT16_LAYOUT_H
#define SWIFTDARKNET_INT16_LAYOUT_H
#include "CDarknetKernels/integer.h"
#include "IntegerRound.h"

#include <string.h>

/* The code of x: clamp(rint(x * inverse_scale), -limit, limit), NaN -> 0. */
static inline int32_t int16_code(float x, float inverse_scale, float limit) {
    return (int32_t)int8_round_within(x * inverse_scale, limit);
}

/* Pixels [0, count) of a pair of rows (x1 NULL: the pair's missing second channel) as 4-byte
 * pairs of codes. */
static inline void int16_pixels_portable(const float *x0, const float *x1, ptrdiff_t count, float inverse_scale,
                                         float limit, uint8_t *out) {
    for (ptrdiff_t i = 0; i < count; i++) {
        const uint32_t pair = (uint32_t)(uint16_t)int16_code(x0[i], inverse_scale, limit) |
                              (uint32_t)(uint16_t)(x1 ? int16_code(x1[i], inverse_scale, limit) : 0) << 16;
        memcpy(out + i * 4, &pair, 4);
    }
}

typedef void int16_pixels_fn(const float *x0, const float *x1, ptrdiff_t count, float inverse_scale, float limit,
                             uint8_t *out);

/* Stride 2: pair p's four phase planes (CDarknetKernels/integer.h), zero wherever no input pixel
 * lands; each row's codes made a chunk at a time, then dealt to the even and odd columns' planes. */
static inline __attribute__((always_inline)) void int16_direct_layout_phases(
    const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width, ptrdiff_t padding, float inverse_scale,
    float bound, uint8_t *layout, ptrdiff_t p, int16_pixels_fn *pixels) {
    const ptrdiff_t row_bytes = swiftdarknet_int8_direct_phase_side(width + 2 * padding, 2) * 4;
    const ptrdiff_t phase_bytes = swiftdarknet_int8_direct_phase_side(height + 2 * padding, 2) * row_bytes;
    const ptrdiff_t plane_in = height * width;
    uint8_t *pair = layout + p * 4 * phase_bytes;
    memset(pair, 0, (size_t)(4 * phase_bytes));
    const float *first = input + 2 * p * plane_in;
    const float *second = 2 * p + 1 < channels ? first + plane_in : NULL;
    uint32_t codes[256];
    for (ptrdiff_t y = 0; y < height; y++) {
        const ptrdiff_t padded_y = padding + y;
        uint8_t *even = pair + (padded_y % 2) * 2 * phase_bytes + (padded_y / 2) * row_bytes;
        uint8_t *odd = even + phase_bytes;
        for (ptrdiff_t x0 = 0; x0 < width; x0 += 256) {
            const ptrdiff_t count = width - x0 < 256 ? width - x0 : 256;
            pixels(first + y * width + x0, second ? second + y * width + x0 : NULL, count, inverse_scale, bound,
                   (uint8_t *)codes);
            /* Input column x0 + i is padded column padding + x0 + i; x0 is even. */
            for (ptrdiff_t i = padding % 2; i < count; i += 2)
                memcpy(even + (padding + x0 + i) / 2 * 4, &codes[i], 4);
            for (ptrdiff_t i = 1 - padding % 2; i < count; i += 2)
                memcpy(odd + (padding + x0 + i) / 2 * 4, &codes[i], 4);
        }
    }
}

static inline __attribute__((always_inline)) void int16_direct_layout(
    const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width, ptrdiff_t padding, ptrdiff_t stride,
    float inverse_scale, int32_t limit, uint8_t *layout, ptrdiff_t pair_begin, ptrdiff_t pair_end,
    int16_pixels_fn *pixels) {
    const ptrdiff_t pairs = (channels + 1) / 2;
    const ptrdiff_t padded_width = width + 2 * padding, row_bytes = padded_width * 4;
    const ptrdiff_t plane = (height + 2 * padding) * row_bytes, plane_in = height * width;
    const float bound = (float)limit;
    if (pair_end > pairs) pair_end = pairs;
    if (stride == 2) {
        for (ptrdiff_t p = pair_begin; p < pair_end; p++)
            int16_direct_layout_phases(input, channels, height, width, padding, inverse_scale, bound, layout, p, pixels);
        return;
    }
    for (ptrdiff_t p = pair_begin; p < pair_end; p++) {
        uint8_t *out = layout + p * plane;
        memset(out, 0, (size_t)(padding * row_bytes));
        memset(out + (padding + height) * row_bytes, 0, (size_t)(padding * row_bytes));
        const float *first = input + 2 * p * plane_in;
        const float *second = 2 * p + 1 < channels ? first + plane_in : NULL;
        for (ptrdiff_t y = 0; y < height; y++) {
            uint8_t *line = out + (padding + y) * row_bytes;
            memset(line, 0, (size_t)(padding * 4));
            memset(line + (padding + width) * 4, 0, (size_t)(padding * 4));
            const float *x0 = first + y * width, *x1 = second ? second + y * width : NULL;
            pixels(x0, x1, width, inverse_scale, bound, line + padding * 4);
        }
    }
}
#endif
