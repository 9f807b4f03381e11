/*
 * The arm64 dot-product tile, 8 rows x one strip (16 columns), in two passes of 8 rows x 8
 * columns: 16 int32x4 accumulators (4 columns each), the half's two activation vectors, the
 * 8 rows' weights (two vectors, a row's 4 bytes a 32-bit lane) and the constants fit the 32
 * vector registers, where the whole tile's 32 accumulators would leave none for the operands.
 * Each instruction adds, for 4 columns, one row's 4 weights times the column's 4 bytes.
 *
 * Included once per tile with DOT_TILE_NAME its name and DOT_TILE_SIGNED 1 for SDOT (signed x
 * signed: the activations are flipped to x ^ 0x80 = x - 128 as int8, and 128 times the row's
 * sum of weights, an extra SDOT against ones, is added back at the end: exact, since
 * |w (x - 128)| and |128 w| are at most 128 * 128 and the true sum fits an int32) or 0 for
 * USDOT (FEAT_I8MM: unsigned activations x signed weights, vpdpbusd's product, no correction);
 * undefines both at its end.
 */
static inline __attribute__((always_inline)) void CAT(DOT_TILE_NAME, _half)(const int8_t *a, const uint8_t *b,
                                                                           ptrdiff_t kq, int half, int with_sums,
                                                                           int32x4_t *sums_out, int32_t *tile) {
    int32x4_t acc[8][2];
    for (int r = 0; r < 8; r++) acc[r][0] = acc[r][1] = vdupq_n_s32(0);
#if DOT_TILE_SIGNED
    int32x4_t sums0 = vdupq_n_s32(0), sums1 = vdupq_n_s32(0);
    const uint8x16_t flip = vdupq_n_u8(0x80);
    const int8x16_t ones = vdupq_n_s8(1);
#endif
    for (ptrdiff_t q = 0; q < kq; q++) {
        const uint8x16_t x0 = vld1q_u8(b + q * 64 + half * 32), x1 = vld1q_u8(b + q * 64 + half * 32 + 16);
        const int8x16_t w0123 = vld1q_s8(a + q * 32), w4567 = vld1q_s8(a + q * 32 + 16);
#if DOT_TILE_SIGNED
        const int8x16_t c0 = vreinterpretq_s8_u8(veorq_u8(x0, flip)), c1 = vreinterpretq_s8_u8(veorq_u8(x1, flip));
        if (with_sums) {
            sums0 = vdotq_s32(sums0, w0123, ones);
            sums1 = vdotq_s32(sums1, w4567, ones);
        }
#define DOT_ROW(r, w, lane)                                                                         \
        acc[r][0] = vdotq_laneq_s32(acc[r][0], c0, w, lane);                                         \
        acc[r][1] = vdotq_laneq_s32(acc[r][1], c1, w, lane)
#else
#define DOT_ROW(r, w, lane)                                                                         \
        acc[r][0] = vusdotq_laneq_s32(acc[r][0], x0, w, lane);                                       \
        acc[r][1] = vusdotq_laneq_s32(acc[r][1], x1, w, lane)
#endif
        DOT_ROW(0, w0123, 0); DOT_ROW(1, w0123, 1); DOT_ROW(2, w0123, 2); DOT_ROW(3, w0123, 3);
        DOT_ROW(4, w4567, 0); DOT_ROW(5, w4567, 1); DOT_ROW(6, w4567, 2); DOT_ROW(7, w4567, 3);
#undef DOT_ROW
    }
#if DOT_TILE_SIGNED
    if (with_sums) {
        /* 128 * row sum, the correction for x - 128 (wrapping int32 arithmetic, exact in the end). */
        sums_out[0] = vshlq_n_s32(sums0, 7);
        sums_out[1] = vshlq_n_s32(sums1, 7);
    }
#define DOT_CORRECT(r) acc[r][0] = vaddq_s32(acc[r][0], vdupq_laneq_s32(sums_out[r / 4], r % 4)); \
                       acc[r][1] = vaddq_s32(acc[r][1], vdupq_laneq_s32(sums_out[r / 4], r % 4))
    DOT_CORRECT(0); DOT_CORRECT(1); DOT_CORRECT(2); DOT_CORRECT(3);
    DOT_CORRECT(4); DOT_CORRECT(5); DOT_CORRECT(6); DOT_CORRECT(7);
#undef DOT_CORRECT
#else
    (void)with_sums;
    (void)sums_out;
#endif
    for (int r = 0; r < 8; r++) {
        vst1q_s32(tile + r * INT8_TILE_WIDTH + half * 8, acc[r][0]);
        vst1q_s32(tile + r * INT8_TILE_WIDTH + half * 8 + 4, acc[r][1]);
    }
}

static void DOT_TILE_NAME(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    (void)strips; /* always 1: INT8_TILE_STRIPS */
    int32x4_t sums[2] = {vdupq_n_s32(0), vdupq_n_s32(0)};
    /* The first half also sums the rows' weights (SDOT), the second reuses them. */
    CAT(DOT_TILE_NAME, _half)(a, b, kq, 0, 1, sums, tile);
    CAT(DOT_TILE_NAME, _half)(a, b, kq, 1, 0, sums, tile);
}

#undef DOT_TILE_NAME
#undef DOT_TILE_SIGNED
