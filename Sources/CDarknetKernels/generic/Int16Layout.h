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

static inline __attribute__((always_inline)) void int16_direct_layout(
    const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width, ptrdiff_t padding, ptrdiff_t size,
    float inverse_scale, int32_t limit, uint8_t *layout, ptrdiff_t pair_begin, ptrdiff_t pair_end,
    int16_pixels_fn *pixels) {
    const ptrdiff_t pairs = (channels + 1) / 2;
    const ptrdiff_t padded_width = width + 2 * padding, row_bytes = padded_width * 4;
    const ptrdiff_t plane = (height + 2 * padding) * row_bytes, plane_in = height * width;
    const float bound = (float)limit;
    if (pair_end > pairs) pair_end = pairs;
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
    if (pair_begin < pairs && pair_end == pairs) {
        const ptrdiff_t total = swiftdarknet_int16_direct_layout_bytes(channels, height, width, padding, size);
        memset(layout + pairs * plane, 0, (size_t)(total - pairs * plane));
    }
}
#endif
