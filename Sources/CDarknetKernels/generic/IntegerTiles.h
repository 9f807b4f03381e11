/*
 * The portable tiles: 8 rows x `strips` * 16 columns of int32 sums in plain C, from packed A and
 * B (CDarknetKernels/integer.h), for 8-bit codes and for 16-bit ones (each 4-byte unit of k holding
 * two int16 values, an activation pair in B and a weight pair in A, multiplied and summed
 * pairwise). The references every SIMD tile must reproduce bit for bit.
 */
#include "IntegerCommon.h"

#include <string.h>

static void int8_tile_portable(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    for (int strip = 0; strip < strips; strip++) {
        const uint8_t *panel = b + strip * kq * 64;
        for (int row = 0; row < 8; row++) {
            for (int column = 0; column < 16; column++) {
                const int8_t *w = a + row * 4;
                const uint8_t *x = panel + column * 4;
                int32_t sum = 0;
                for (ptrdiff_t q = 0; q < kq; q++)
                    for (int t = 0; t < 4; t++) sum += (int32_t)w[q * 32 + t] * (int32_t)x[q * 64 + t];
                tile[row * INT8_TILE_WIDTH + strip * 16 + column] = sum;
            }
        }
    }
}

static inline int32_t int16_at(const void *bytes) {
    int16_t value;
    memcpy(&value, bytes, sizeof value);
    return value;
}

static void int16_tile_portable(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    for (int strip = 0; strip < strips; strip++) {
        const uint8_t *panel = b + strip * kq * 64;
        for (int row = 0; row < 8; row++) {
            for (int column = 0; column < 16; column++) {
                const int8_t *w = a + row * 4;
                const uint8_t *x = panel + column * 4;
                int32_t sum = 0;
                for (ptrdiff_t q = 0; q < kq; q++)
                    for (int t = 0; t < 4; t += 2) sum += int16_at(w + q * 32 + t) * int16_at(x + q * 64 + t);
                tile[row * INT8_TILE_WIDTH + strip * 16 + column] = sum;
            }
        }
    }
}
