/*
 * The direct int8 convolution's input layout (darknet_int8.h): CHW codes to channel quads of
 * zero-point-padded planes, 4 channels' bytes side by side per pixel.
 */
#include "darknet_int8.h"

#include <string.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/* Past the last plane, the last panel reads up to 15 columns beyond the virtual ones, each
 * shifted by at most (size - 1) rows and columns: (16 + size) pixels of 4 bytes. */
static ptrdiff_t slack_bytes(ptrdiff_t size) { return (SWIFTDARKNET_INT8_STRIP + size) * 4; }

ptrdiff_t swiftdarknet_int8_direct_layout_bytes(ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                                ptrdiff_t padding, ptrdiff_t size) {
    return (channels + 3) / 4 * (height + 2 * padding) * (width + 2 * padding) * 4 + slack_bytes(size);
}

/* One row of `width` pixels: byte t of pixel x from rows[t][x]. */
static void interleave_row(const uint8_t *rows[4], ptrdiff_t width, uint8_t *out) {
    ptrdiff_t x = 0;
#if defined(__x86_64__)
    /* SSE2 (the x86-64 baseline): bytes of rows 0/1 and 2/3 paired, then the pairs paired. */
    for (; x + 16 <= width; x += 16) {
        const __m128i r0 = _mm_loadu_si128((const __m128i *)(rows[0] + x));
        const __m128i r1 = _mm_loadu_si128((const __m128i *)(rows[1] + x));
        const __m128i r2 = _mm_loadu_si128((const __m128i *)(rows[2] + x));
        const __m128i r3 = _mm_loadu_si128((const __m128i *)(rows[3] + x));
        const __m128i low01 = _mm_unpacklo_epi8(r0, r1), high01 = _mm_unpackhi_epi8(r0, r1);
        const __m128i low23 = _mm_unpacklo_epi8(r2, r3), high23 = _mm_unpackhi_epi8(r2, r3);
        uint8_t *o = out + x * 4;
        _mm_storeu_si128((__m128i *)o, _mm_unpacklo_epi16(low01, low23));
        _mm_storeu_si128((__m128i *)(o + 16), _mm_unpackhi_epi16(low01, low23));
        _mm_storeu_si128((__m128i *)(o + 32), _mm_unpacklo_epi16(high01, high23));
        _mm_storeu_si128((__m128i *)(o + 48), _mm_unpackhi_epi16(high01, high23));
    }
#endif
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
    if (quad_begin < quads && quad_end == quads) memset(layout + quads * plane, zero_point, (size_t)slack_bytes(size));
}

/* Bytes of B copied at a time: with a chunk of packed A (192 KiB), within a 1 MiB L2. */
#define DIRECT_GROUP_BYTES (512 * 1024)

ptrdiff_t swiftdarknet_int8_direct_panel_bytes(ptrdiff_t k) {
    /* Whole panels of the widest tile (3 strips of every quad's 64 bytes): at least one. */
    const ptrdiff_t panel = (k + 3) / 4 * 64 * 3, panels = DIRECT_GROUP_BYTES / panel;
    return (panels > 1 ? panels : 1) * panel;
}
