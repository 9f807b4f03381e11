/*
 * Max pooling of 8-bit codes (see CDarknetKernels/integer.h). Byte maxima need no instruction-set
 * variant: 16-byte vectors are baseline on x86-64 (SSE2's pmaxub) and on arm64.
 */
#include "CDarknetKernels/integer.h"

#include <string.h>

typedef uint8_t u8x16 __attribute__((ext_vector_type(16)));

static inline u8x16 load16(const uint8_t *p) {
    u8x16 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline uint8_t max2(uint8_t a, uint8_t b) { return a > b ? a : b; }

/* size 2, stride 1, windows from (0, 0), output as large as the input: over the channels'
 * planes as one flat array, each output is the maximum of its cell, the next, and the two below;
 * then each plane's last column and last row, whose windows reach past it (cells Darknet
 * ignores), are made again from their inside cells. */
static void maxpool2x2_stride1_u8(const uint8_t *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                  uint8_t *output) {
    const ptrdiff_t plane = height * width, total = channels * plane, flat = total - width - 1;
    ptrdiff_t i = 0;
    for (; i + 16 <= flat; i += 16) {
        const u8x16 top = __builtin_elementwise_max(load16(input + i), load16(input + i + 1));
        const u8x16 bottom = __builtin_elementwise_max(load16(input + i + width), load16(input + i + width + 1));
        const u8x16 m = __builtin_elementwise_max(top, bottom);
        memcpy(output + i, &m, sizeof m);
    }
    for (; i < flat; i++) {
        output[i] = max2(max2(input[i], input[i + 1]), max2(input[i + width], input[i + width + 1]));
    }
    for (ptrdiff_t c = 0; c < channels; c++) {
        const uint8_t *in = input + c * plane;
        uint8_t *out = output + c * plane;
        for (ptrdiff_t y = 0; y + 1 < height; y++) {
            const ptrdiff_t x = y * width + width - 1;
            out[x] = max2(in[x], in[x + width]);
        }
        const ptrdiff_t last = (height - 1) * width;
        for (ptrdiff_t x = 0; x + 1 < width; x++) out[last + x] = max2(in[last + x], in[last + x + 1]);
        out[last + width - 1] = in[last + width - 1];
    }
}

/* size 2, stride 2, windows from (0, 0); a window's cell past the last column or row repeats
 * an inside one (Darknet ignores it). */
static void maxpool2x2_stride2_u8(const uint8_t *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                  ptrdiff_t out_height, ptrdiff_t out_width, uint8_t *output) {
    for (ptrdiff_t c = 0; c < channels; c++) {
        const uint8_t *plane = input + c * height * width;
        for (ptrdiff_t oy = 0; oy < out_height; oy++) {
            const uint8_t *row0 = plane + 2 * oy * width;
            const uint8_t *row1 = 2 * oy + 1 < height ? row0 + width : row0;
            uint8_t *out = output + (c * out_height + oy) * out_width;
            ptrdiff_t ox = 0;
            for (; ox + 16 <= out_width && 2 * ox + 32 <= width; ox += 16) {
                const u8x16 low = __builtin_elementwise_max(load16(row0 + 2 * ox), load16(row1 + 2 * ox));
                const u8x16 high = __builtin_elementwise_max(load16(row0 + 2 * ox + 16), load16(row1 + 2 * ox + 16));
                const u8x16 even = __builtin_shufflevector(low, high, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
                const u8x16 odd = __builtin_shufflevector(low, high, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
                const u8x16 pooled = __builtin_elementwise_max(even, odd);
                memcpy(out + ox, &pooled, sizeof pooled);
            }
            for (; ox < out_width; ox++) {
                const ptrdiff_t x = 2 * ox, x1 = x + 1 < width ? x + 1 : x;
                out[ox] = max2(max2(row0[x], row0[x1]), max2(row1[x], row1[x1]));
            }
        }
    }
}

void swiftdarknet_maxpool_u8(const uint8_t *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                             ptrdiff_t size, ptrdiff_t stride_x, ptrdiff_t stride_y, ptrdiff_t padding,
                             ptrdiff_t out_height, ptrdiff_t out_width, uint8_t *output) {
    if (channels <= 0 || height <= 0 || width <= 0) return;
    const ptrdiff_t offset = -padding / 2;
    if (size == 2 && offset == 0 && stride_x == stride_y) {
        if (stride_x == 1 && out_height == height && out_width == width) {
            maxpool2x2_stride1_u8(input, channels, height, width, output);
            return;
        }
        if (stride_x == 2) {
            maxpool2x2_stride2_u8(input, channels, height, width, out_height, out_width, output);
            return;
        }
    }
    for (ptrdiff_t c = 0; c < channels; c++) {
        const uint8_t *plane = input + c * height * width;
        uint8_t *out = output + c * out_height * out_width;
        for (ptrdiff_t oy = 0; oy < out_height; oy++) {
            const ptrdiff_t y0 = oy * stride_y + offset;
            const ptrdiff_t y_start = y0 > 0 ? y0 : 0, y_end = y0 + size < height ? y0 + size : height;
            for (ptrdiff_t ox = 0; ox < out_width; ox++) {
                const ptrdiff_t x0 = ox * stride_x + offset;
                const ptrdiff_t x_start = x0 > 0 ? x0 : 0, x_end = x0 + size < width ? x0 + size : width;
                uint8_t best = 0;  /* an empty window: the code of the float pool's -FLT_MAX */
                for (ptrdiff_t y = y_start; y < y_end; y++) {
                    for (ptrdiff_t x = x_start; x < x_end; x++) best = max2(best, plane[y * width + x]);
                }
                out[oy * out_width + ox] = best;
            }
        }
    }
}
