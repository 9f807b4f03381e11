/*
 * The direct int8 convolution's input layout (CDarknetKernels/integer.h): CHW codes to channel quads of
 * zero-point-padded planes, 4 channels' bytes side by side per pixel.
 */
#include "CDarknetKernels/integer.h"

#include "Primitives.h"

#include <string.h>

ptrdiff_t swiftdarknet_int8_direct_layout_bytes(ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                                ptrdiff_t padding, ptrdiff_t size) {
    (void)size;
    return (channels + 3) / 4 * (height + 2 * padding) * (width + 2 * padding) * 4;
}

/* One row of `width` pixels: byte t of pixel x from rows[t][x]. */
static void interleave_row(const uint8_t *rows[4], ptrdiff_t width, uint8_t *out) {
    ptrdiff_t x = 0;
    for (; x + 16 <= width; x += 16) int8_interleave16(rows[0] + x, rows[1] + x, rows[2] + x, rows[3] + x, out + x * 4);
    for (; x < width; x++)
        for (int t = 0; t < 4; t++) out[x * 4 + t] = rows[t][x];
}

void swiftdarknet_int8_direct_layout(const uint8_t *codes, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                     ptrdiff_t padding, ptrdiff_t size, uint8_t zero_point, uint8_t *layout,
                                     ptrdiff_t quad_begin, ptrdiff_t quad_end) {
    const ptrdiff_t quads = (channels + 3) / 4;
    const ptrdiff_t padded_width = width + 2 * padding, row_bytes = padded_width * 4;
    const ptrdiff_t plane = (height + 2 * padding) * row_bytes, plane_in = height * width;
    if (quad_end > quads) quad_end = quads;
    /* The rows of a quad's missing channels: the zero point, a row at a time. */
    uint8_t filler[256];
    memset(filler, zero_point, sizeof filler);
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

ptrdiff_t swiftdarknet_int8_direct_panel_bytes(ptrdiff_t k) {
    /* Whole panels of the widest tile (3 strips of every quad's 64 bytes): at least one. */
    const ptrdiff_t panel = (k + 3) / 4 * 64 * 3, panels = DIRECT_GROUP_BYTES / panel;
    return (panels > 1 ? panels : 1) * panel;
}
