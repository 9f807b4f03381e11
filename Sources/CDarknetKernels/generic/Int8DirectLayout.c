/*
 * The direct int8 convolution's input layout (CDarknetKernels/integer.h): CHW codes to channel quads of
 * zero-point-padded planes, 4 channels' bytes side by side per pixel.
 */
#include "CDarknetKernels/integer.h"

#include "../support/Primitives.h"

#include <string.h>

ptrdiff_t swiftdarknet_int8_direct_layout_bytes(ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                                ptrdiff_t padding, ptrdiff_t stride) {
    return (channels + 3) / 4 * stride * stride * swiftdarknet_int8_direct_phase_side(height + 2 * padding, stride) *
           swiftdarknet_int8_direct_phase_side(width + 2 * padding, stride) * 4;
}

/* One row of `width` pixels: byte t of pixel x from rows[t][x]. */
static void interleave_row(const uint8_t *rows[4], ptrdiff_t width, uint8_t *out) {
    ptrdiff_t x = 0;
    for (; x + 16 <= width; x += 16) int8_interleave16(rows[0] + x, rows[1] + x, rows[2] + x, rows[3] + x, out + x * 4);
    for (; x < width; x++)
        for (int t = 0; t < 4; t++) out[x * 4 + t] = rows[t][x];
}

/* `count` bytes source[0], source[2], ... into out. */
static void even_bytes(const uint8_t *source, ptrdiff_t count, uint8_t *out) {
    ptrdiff_t j = 0;
    /* 16 at a time while their 32 bytes lie within the 2 * count - 1 the caller has. */
    for (; j + 17 <= count; j += 16) int8_even_bytes16(source + 2 * j, out + j);
    for (; j < count; j++) out[j] = source[2 * j];
}

/* Stride 2: quad q's four phase planes, the zero point wherever no input pixel lands. */
static void layout_phases(const uint8_t *codes, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                          ptrdiff_t padding, uint8_t zero_point, uint8_t *layout, ptrdiff_t q,
                          const uint8_t *filler) {
    const ptrdiff_t row_bytes = swiftdarknet_int8_direct_phase_side(width + 2 * padding, 2) * 4;
    const ptrdiff_t phase_bytes = swiftdarknet_int8_direct_phase_side(height + 2 * padding, 2) * row_bytes;
    const ptrdiff_t plane_in = height * width;
    uint8_t *quad = layout + q * 4 * phase_bytes;
    memset(quad, zero_point, (size_t)(4 * phase_bytes));
    uint8_t columns[4][128];
    for (ptrdiff_t y = 0; y < height; y++) {
        const ptrdiff_t padded_y = padding + y;
        for (ptrdiff_t phase_x = 0; phase_x < 2; phase_x++) {
            /* Units j of this phase row hold padded column 2j + phase_x, input column 2j + phase_x - padding. */
            ptrdiff_t j = padding > phase_x ? (padding - phase_x + 1) / 2 : 0;
            uint8_t *line = quad + ((padded_y % 2) * 2 + phase_x) * phase_bytes + (padded_y / 2) * row_bytes;
            for (;;) {
                const ptrdiff_t x = 2 * j + phase_x - padding;
                if (x >= width) break;
                ptrdiff_t count = (width - x + 1) / 2;
                if (count > 128) count = 128;
                const uint8_t *rows[4];
                for (int t = 0; t < 4; t++) {
                    const ptrdiff_t channel = 4 * q + t;
                    if (channel < channels) {
                        even_bytes(codes + channel * plane_in + y * width + x, count, columns[t]);
                        rows[t] = columns[t];
                    } else {
                        rows[t] = filler;
                    }
                }
                interleave_row(rows, count, line + j * 4);
                j += count;
            }
        }
    }
}

void swiftdarknet_int8_direct_layout(const uint8_t *codes, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                     ptrdiff_t padding, ptrdiff_t stride, uint8_t zero_point, uint8_t *layout,
                                     ptrdiff_t quad_begin, ptrdiff_t quad_end) {
    const ptrdiff_t quads = (channels + 3) / 4;
    const ptrdiff_t padded_width = width + 2 * padding, row_bytes = padded_width * 4;
    const ptrdiff_t plane = (height + 2 * padding) * row_bytes, plane_in = height * width;
    if (quad_end > quads) quad_end = quads;
    /* The rows of a quad's missing channels: the zero point, a row at a time. */
    uint8_t filler[256];
    memset(filler, zero_point, sizeof filler);
    if (stride == 2) {
        for (ptrdiff_t q = quad_begin; q < quad_end; q++)
            layout_phases(codes, channels, height, width, padding, zero_point, layout, q, filler);
        return;
    }
    for (ptrdiff_t q = quad_begin; q < quad_end; q++) {
        uint8_t *out = layout + q * plane;
        memset(out, zero_point, (size_t)(padding * row_bytes));
        memset(out + (padding + height) * row_bytes, zero_point, (size_t)(padding * row_bytes));
        for (ptrdiff_t y = 0; y < height; y++) {
            uint8_t *line = out + (padding + y) * row_bytes;
            memset(line, zero_point, (size_t)(padding * 4));
            memset(line + (padding + width) * 4, zero_point, (size_t)(padding * 4));
            for (ptrdiff_t x0 = 0; x0 < width; x0 += (ptrdiff_t)sizeof filler) {
                const ptrdiff_t count = width - x0 < (ptrdiff_t)sizeof filler ? width - x0 : (ptrdiff_t)sizeof filler;
                const uint8_t *rows[4];
                for (int t = 0; t < 4; t++) {
                    const ptrdiff_t channel = 4 * q + t;
                    rows[t] = channel < channels ? codes + channel * plane_in + y * width + x0 : filler;
                }
                interleave_row(rows, count, line + (padding + x0) * 4);
            }
        }
    }
}

/* Bytes of B copied at a time: with a chunk of packed A (192 KiB), within a 1 MiB L2. */
#define DIRECT_GROUP_BYTES (512 * 1024)
/* Up to this, all of B at once, so that the weights (packed A) stream past it only once: a
 * narrow output's weights outweigh its B (13x13 512 -> 1024: 4.7 MB against 0.8 MB), and
 * reading them twice cost more than B's share of L2 (YOLOv3's 13-wide layers 0.95x). */
#define DIRECT_WHOLE_BYTES (1024 * 1024)

ptrdiff_t swiftdarknet_int8_direct_panel_bytes(ptrdiff_t k, ptrdiff_t n) {
    /* Whole panels of the widest tile (3 strips of every quad's 64 bytes): at least one. */
    const ptrdiff_t strip = (k + 3) / 4 * 64, panel = strip * 3, all = (n + 15) / 16 * strip;
    if (all <= DIRECT_WHOLE_BYTES) return (all + panel - 1) / panel * panel;
    const ptrdiff_t panels = DIRECT_GROUP_BYTES / panel;
    return (panels > 1 ? panels : 1) * panel;
}
