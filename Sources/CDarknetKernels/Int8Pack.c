/*
 * Packing for the int8 GEMM (see darknet_int8.h for the layouts): weights once at load,
 * activations (or their im2col) before every GEMM. Plain C: byte shuffles the compiler handles.
 */
#include "darknet_int8.h"

#include <string.h>

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

/* The first byte of row k's 4-byte group for column n: add 4 per column, 1 per k within the quad. */
static inline uint8_t *packed_b_at(uint8_t *packed, ptrdiff_t kq, ptrdiff_t k, ptrdiff_t n) {
    return packed + ((n / SWIFTDARKNET_INT8_STRIP) * kq + k / 4) * 4 * SWIFTDARKNET_INT8_STRIP +
           (n % SWIFTDARKNET_INT8_STRIP) * 4 + k % 4;
}

/* Zeroes the k rows [k, 4 kq) and the columns [n, strips * 16) of packed B. */
static void zero_b_padding(uint8_t *packed, ptrdiff_t k, ptrdiff_t n) {
    const ptrdiff_t kq = quads(k);
    const ptrdiff_t columns = (n + SWIFTDARKNET_INT8_STRIP - 1) / SWIFTDARKNET_INT8_STRIP * SWIFTDARKNET_INT8_STRIP;
    for (ptrdiff_t row = k; row < kq * 4; row++)
        for (ptrdiff_t column = 0; column < columns; column++) *packed_b_at(packed, kq, row, column) = 0;
    for (ptrdiff_t row = 0; row < k; row++)
        for (ptrdiff_t column = n; column < columns; column++) *packed_b_at(packed, kq, row, column) = 0;
}

void swiftdarknet_int8_pack_b(const uint8_t *b, ptrdiff_t k, ptrdiff_t n, ptrdiff_t ldb, uint8_t *packed) {
    const ptrdiff_t kq = quads(k);
    for (ptrdiff_t row = 0; row < k; row++) {
        const uint8_t *source = b + row * ldb;
        for (ptrdiff_t column = 0; column < n; column++) *packed_b_at(packed, kq, row, column) = source[column];
    }
    zero_b_padding(packed, k, n);
}

void swiftdarknet_int8_im2col_packed(const uint8_t *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                     ptrdiff_t size, ptrdiff_t stride, ptrdiff_t pad, uint8_t pad_value,
                                     ptrdiff_t out_height, ptrdiff_t out_width, uint8_t *packed) {
    const ptrdiff_t k = channels * size * size, n = out_height * out_width, kq = quads(k);
    for (ptrdiff_t row = 0; row < k; row++) {
        const ptrdiff_t kx = row % size, ky = row / size % size, c = row / (size * size);
        const uint8_t *plane = input + c * height * width;
        ptrdiff_t column = 0;
        for (ptrdiff_t oy = 0; oy < out_height; oy++) {
            const ptrdiff_t y = oy * stride + ky - pad;
            const int row_inside = y >= 0 && y < height;
            for (ptrdiff_t ox = 0; ox < out_width; ox++, column++) {
                const ptrdiff_t x = ox * stride + kx - pad;
                *packed_b_at(packed, kq, row, column) =
                    row_inside && x >= 0 && x < width ? plane[y * width + x] : pad_value;
            }
        }
    }
    zero_b_padding(packed, k, n);
}
