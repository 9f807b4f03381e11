/*
 * Advanced SIMD integer tiles without a dot-product instruction: operands widened to int16 and
 * multiplied into int32 lanes by smlal / smlal2 against one weight (a lane of a vector), four
 * products per instruction. Included by every arm64 integer set's translation unit: the 8-bit
 * tile is the NEON set's, the 16-bit one (int16 pairs, summed pairwise) every set's.
 *
 * Blocking: the tile's 8 rows x 16 columns are taken in two passes of 8 rows x 8 columns, 16
 * int32x4 accumulators; with the activations of one k (one int16x8), the 8 rows' weights (four
 * int16x8 for 8 bits, two for 16) and the loads in flight that stays within the 32 vector
 * registers, where the whole tile (32 accumulators) would not leave room for the operands.
 * ld4 / ld2 de-interleave a quad's bytes (column-major by k in packed B) into one vector per k.
 */
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

/* acc[r][0..1] += columns (8 int16, by k) * weight lane `lane` of `w`, for row r. */
#define WIDEN_ROW(r, columns, w, lane)                                                              \
    acc[r][0] = vmlal_laneq_s16(acc[r][0], vget_low_s16(columns), w, lane);                          \
    acc[r][1] = vmlal_high_laneq_s16(acc[r][1], columns, w, lane)

static inline __attribute__((always_inline)) void widen_store(int32x4_t acc[8][2], int half, int32_t *tile) {
    for (int r = 0; r < 8; r++) {
        vst1q_s32(tile + r * INT8_TILE_WIDTH + half * 8, acc[r][0]);
        vst1q_s32(tile + r * INT8_TILE_WIDTH + half * 8 + 4, acc[r][1]);
    }
}

__attribute__((unused)) static void int8_tile_neon(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    (void)strips; /* always 1: INT8_TILE_STRIPS */
    for (int half = 0; half < 2; half++) {
        int32x4_t acc[8][2];
        for (int r = 0; r < 8; r++) acc[r][0] = acc[r][1] = vdupq_n_s32(0);
        for (ptrdiff_t q = 0; q < kq; q++) {
            /* The half's 8 columns, one uint8x8 per k, widened (0 ... 255 fits an int16). */
            const uint8x8x4_t x = vld4_u8(b + q * 64 + half * 32);
            const int16x8_t x0 = vreinterpretq_s16_u16(vmovl_u8(x.val[0]));
            const int16x8_t x1 = vreinterpretq_s16_u16(vmovl_u8(x.val[1]));
            const int16x8_t x2 = vreinterpretq_s16_u16(vmovl_u8(x.val[2]));
            const int16x8_t x3 = vreinterpretq_s16_u16(vmovl_u8(x.val[3]));
            /* The 8 rows' 4 weights: w01 = rows 0 and 1 (lane r % 2 * 4 + k), and so on. */
            const int8x16_t w0123 = vld1q_s8(a + q * 32), w4567 = vld1q_s8(a + q * 32 + 16);
            const int16x8_t w01 = vmovl_s8(vget_low_s8(w0123)), w23 = vmovl_high_s8(w0123);
            const int16x8_t w45 = vmovl_s8(vget_low_s8(w4567)), w67 = vmovl_high_s8(w4567);
#define WIDEN_K(columns, k)                                                                         \
            WIDEN_ROW(0, columns, w01, k); WIDEN_ROW(1, columns, w01, 4 + k);                        \
            WIDEN_ROW(2, columns, w23, k); WIDEN_ROW(3, columns, w23, 4 + k);                        \
            WIDEN_ROW(4, columns, w45, k); WIDEN_ROW(5, columns, w45, 4 + k);                        \
            WIDEN_ROW(6, columns, w67, k); WIDEN_ROW(7, columns, w67, 4 + k)
            WIDEN_K(x0, 0);
            WIDEN_K(x1, 1);
            WIDEN_K(x2, 2);
            WIDEN_K(x3, 3);
#undef WIDEN_K
        }
        widen_store(acc, half, tile);
    }
}

__attribute__((unused)) static void int16_tile_neon(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    (void)strips; /* always 1: INT8_TILE_STRIPS */
    for (int half = 0; half < 2; half++) {
        int32x4_t acc[8][2];
        for (int r = 0; r < 8; r++) acc[r][0] = acc[r][1] = vdupq_n_s32(0);
        for (ptrdiff_t q = 0; q < kq; q++) {
            /* The half's 8 columns' two int16 values (val[0] the first of each pair). */
            const int16x8x2_t x = vld2q_s16((const int16_t *)(b + q * 64 + half * 32));
            /* The 8 rows' pairs: w0123 lane r * 2 + p, w4567 lane (r - 4) * 2 + p. */
            const int16x8_t w0123 = vld1q_s16((const int16_t *)(a + q * 32));
            const int16x8_t w4567 = vld1q_s16((const int16_t *)(a + q * 32 + 16));
#define WIDEN_PAIR(columns, p)                                                                      \
            WIDEN_ROW(0, columns, w0123, p); WIDEN_ROW(1, columns, w0123, 2 + p);                    \
            WIDEN_ROW(2, columns, w0123, 4 + p); WIDEN_ROW(3, columns, w0123, 6 + p);                \
            WIDEN_ROW(4, columns, w4567, p); WIDEN_ROW(5, columns, w4567, 2 + p);                    \
            WIDEN_ROW(6, columns, w4567, 4 + p); WIDEN_ROW(7, columns, w4567, 6 + p)
            WIDEN_PAIR(x.val[0], 0);
            WIDEN_PAIR(x.val[1], 1);
#undef WIDEN_PAIR
        }
        widen_store(acc, half, tile);
    }
}

#undef WIDEN_ROW
