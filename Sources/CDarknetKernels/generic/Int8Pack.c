/*
 * Packing for the int8 GEMM (see CDarknetKernels/integer.h for the layouts): weights once at load,
 * activations (or their im2col) before every GEMM. B is built a quad of k rows and a chunk of
 * columns at a time: the 4 rows' bytes (read contiguously, or produced by the im2col into a small
 * buffer), then interleaved into 16-column strips of 64 bytes.
 */
#include "CDarknetKernels/integer.h"

#include "../support/Primitives.h"

#include <string.h>

/* Columns per chunk: 4 rows of it stay in L1 between the im2col and the interleave. */
#define PACK_CHUNK 512

static inline ptrdiff_t quads(ptrdiff_t k) { return (k + 3) / 4; }

ptrdiff_t swiftdarknet_int8_packed_a_bytes(ptrdiff_t m, ptrdiff_t k) {
    return (m + SWIFTDARKNET_INT8_ROW_BLOCK - 1) / SWIFTDARKNET_INT8_ROW_BLOCK * quads(k) * 4 *
           SWIFTDARKNET_INT8_ROW_BLOCK;
}

ptrdiff_t swiftdarknet_int8_packed_b_bytes(ptrdiff_t k, ptrdiff_t n) {
    return (n + SWIFTDARKNET_INT8_STRIP - 1) / SWIFTDARKNET_INT8_STRIP * quads(k) * 4 * SWIFTDARKNET_INT8_STRIP;
}

void swiftdarknet_int8_pack_a(const int8_t *a, ptrdiff_t m, ptrdiff_t k, ptrdiff_t lda, int8_t *packed) {
    const ptrdiff_t kq = quads(k);
    memset(packed, 0, (size_t)swiftdarknet_int8_packed_a_bytes(m, k));
    for (ptrdiff_t row = 0; row < m; row++) {
        int8_t *block = packed + (row / SWIFTDARKNET_INT8_ROW_BLOCK) * kq * 4 * SWIFTDARKNET_INT8_ROW_BLOCK +
                        (row % SWIFTDARKNET_INT8_ROW_BLOCK) * 4;
        const int8_t *source = a + row * lda;
        for (ptrdiff_t i = 0; i < k; i++) block[(i / 4) * 4 * SWIFTDARKNET_INT8_ROW_BLOCK + i % 4] = source[i];
    }
}

void swiftdarknet_int8_row_sums(const int8_t *a, ptrdiff_t m, ptrdiff_t k, ptrdiff_t lda, int32_t *sums) {
    for (ptrdiff_t row = 0; row < m; row++) {
        int32_t sum = 0;
        for (ptrdiff_t i = 0; i < k; i++) sum += a[row * lda + i];
        sums[row] = sum;
    }
}

/* Interleaves 4 rows of `count` bytes (columns n0 .. n0 + count, n0 a multiple of 16) into the
 * strips of quad q; the last strip's columns past `count` get 0. */
static void interleave_quad(const uint8_t *rows[4], ptrdiff_t count, ptrdiff_t n0, ptrdiff_t q, ptrdiff_t kq,
                            uint8_t *packed) {
    ptrdiff_t done = 0;
    for (; done + 16 <= count; done += 16) {
        uint8_t *out = packed + ((n0 + done) / 16 * kq + q) * 64;
        int8_interleave16(rows[0] + done, rows[1] + done, rows[2] + done, rows[3] + done, out);
    }
    if (done < count) {
        uint8_t *out = packed + ((n0 + done) / 16 * kq + q) * 64;
        memset(out, 0, 64);
        for (ptrdiff_t j = 0; j < count - done; j++)
            for (int t = 0; t < 4; t++) out[j * 4 + t] = rows[t][done + j];
    }
}

static const uint8_t zeros[PACK_CHUNK];

void swiftdarknet_int8_pack_b(const uint8_t *b, ptrdiff_t k, ptrdiff_t n, ptrdiff_t ldb, uint8_t *packed,
                              ptrdiff_t quad_begin, ptrdiff_t quad_end) {
    const ptrdiff_t kq = quads(k);
    if (quad_end > kq) quad_end = kq;
    for (ptrdiff_t q = quad_begin; q < quad_end; q++) {
        for (ptrdiff_t n0 = 0; n0 < n; n0 += PACK_CHUNK) {
            const ptrdiff_t count = n - n0 < PACK_CHUNK ? n - n0 : PACK_CHUNK;
            const uint8_t *rows[4];
            for (int t = 0; t < 4; t++) rows[t] = 4 * q + t < k ? b + (4 * q + t) * ldb + n0 : zeros;
            interleave_quad(rows, count, n0, q, kq, packed);
        }
    }
}

/* Columns [n0, n0 + count) of im2col row `row` (channel, kernel row, kernel column) into `out`. */
static void im2col_row(const uint8_t *input, ptrdiff_t height, ptrdiff_t width, ptrdiff_t size, ptrdiff_t stride,
                       ptrdiff_t pad, uint8_t pad_value, ptrdiff_t out_width, ptrdiff_t row, ptrdiff_t n0,
                       ptrdiff_t count, uint8_t *out) {
    const ptrdiff_t kx = row % size, ky = row / size % size, c = row / (size * size);
    const uint8_t *plane = input + c * height * width;
    ptrdiff_t oy = n0 / out_width, ox = n0 % out_width;
    while (count > 0) {
        const ptrdiff_t run = out_width - ox < count ? out_width - ox : count;
        const ptrdiff_t y = oy * stride + ky - pad;
        if (y < 0 || y >= height) {
            memset(out, pad_value, (size_t)run);
        } else {
            const uint8_t *line = plane + y * width;
            /* Output columns whose x = o * stride + kx - pad lies inside [0, width). */
            ptrdiff_t first = ox, last = ox + run;  /* [first, last) inside, computed below */
            while (first < last && first * stride + kx - pad < 0) first++;
            while (last > first && (last - 1) * stride + kx - pad >= width) last--;
            /* Plain loops, not memset/memcpy: runs are one output row (tens to hundreds of bytes),
             * where the calls cost more than the copying. */
            for (ptrdiff_t i = 0; i < first - ox; i++) out[i] = pad_value;
            if (stride == 1) {
                const uint8_t *source = line + first + kx - pad;
                uint8_t *target = out + (first - ox);
                for (ptrdiff_t i = 0; i < last - first; i++) target[i] = source[i];
            } else {
                const uint8_t *source = line + first * stride + kx - pad;
                uint8_t *target = out + (first - ox);
                const ptrdiff_t total = last - first;
                ptrdiff_t i = 0;
                if (stride == 2) {
                    /* 16 outputs from 32 bytes at a time, while all 32 lie inside the input row. */
                    const ptrdiff_t available = width - (first * stride + kx - pad);
                    for (; i + 16 <= total && 2 * i + 32 <= available; i += 16) int8_even_bytes16(source + 2 * i, target + i);
                }
                for (; i < total; i++) target[i] = source[i * stride];
            }
            for (ptrdiff_t i = last - ox; i < run; i++) out[i] = pad_value;
        }
        out += run;
        count -= run;
        ox = 0;
        oy++;
    }
}

void swiftdarknet_int8_im2col_packed(const uint8_t *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                     ptrdiff_t size, ptrdiff_t stride, ptrdiff_t pad, uint8_t pad_value,
                                     ptrdiff_t out_height, ptrdiff_t out_width, uint8_t *packed,
                                     ptrdiff_t quad_begin, ptrdiff_t quad_end) {
    const ptrdiff_t k = channels * size * size, n = out_height * out_width, kq = quads(k);
    uint8_t buffer[4][PACK_CHUNK];
    if (quad_end > kq) quad_end = kq;
    /* Chunks outside, quads inside: each strip of the chunk is then written front to back. */
    for (ptrdiff_t n0 = 0; n0 < n; n0 += PACK_CHUNK) {
        const ptrdiff_t count = n - n0 < PACK_CHUNK ? n - n0 : PACK_CHUNK;
        for (ptrdiff_t q = quad_begin; q < quad_end; q++) {
            const uint8_t *rows[4];
            for (int t = 0; t < 4; t++) {
                if (4 * q + t < k) {
                    im2col_row(input, height, width, size, stride, pad, pad_value, out_width, 4 * q + t, n0, count,
                               buffer[t]);
                    rows[t] = buffer[t];
                } else {
                    rows[t] = zeros;
                }
            }
            interleave_quad(rows, count, n0, q, kq, packed);
        }
    }
}
