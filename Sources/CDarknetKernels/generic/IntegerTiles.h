/*
 * The portable tiles: 8 rows x `strips` * 16 columns of int32 sums in plain C, from packed A and
 * B (CDarknetKernels/integer.h), for 8-bit codes and for 16-bit ones (each 4-byte unit of k holding
 * two int16 values, an activation pair in B and a weight pair in A, multiplied and summed
 * pairwise). The references every SIMD tile must reproduce bit for bit.
 */
#include "IntegerCommon.h"

#include <string.h>

static inline int32_t int16_at(const void *bytes) {
    int16_t value;
    memcpy(&value, bytes, sizeof value);
    return value;
}

/* The products of one 4-byte unit of k: four u8 x s8, or (`sixteen`) two int16 x int16. */
static inline __attribute__((always_inline)) int32_t integer_unit_product(const int8_t *w, const uint8_t *x,
                                                                          int sixteen) {
    if (sixteen) return int16_at(w) * int16_at(x) + int16_at(w + 2) * int16_at(x + 2);
    int32_t sum = 0;
    for (int t = 0; t < 4; t++) sum += (int32_t)w[t] * (int32_t)x[t];
    return sum;
}

static inline __attribute__((always_inline)) void integer_tile_portable(const int8_t *a, const uint8_t *b,
                                                                        ptrdiff_t kq, int strips, int32_t *tile,
                                                                        int sixteen) {
    for (int strip = 0; strip < strips; strip++) {
        const uint8_t *panel = b + strip * kq * 64;
        for (int row = 0; row < 8; row++) {
            for (int column = 0; column < 16; column++) {
                const int8_t *w = a + row * 4;
                const uint8_t *x = panel + column * 4;
                int32_t sum = 0;
                for (ptrdiff_t q = 0; q < kq; q++) sum += integer_unit_product(w + q * 32, x + q * 64, sixteen);
                tile[row * INT8_TILE_WIDTH + strip * 16 + column] = sum;
            }
        }
    }
}

static void int8_tile_portable(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    integer_tile_portable(a, b, kq, strips, tile, 0);
}

static void int16_tile_portable(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    integer_tile_portable(a, b, kq, strips, tile, 1);
}
