/*
 * The int8 GEMM's AVX-512 VNNI tile: 8 rows x up to 3 strips (48 columns) in 24 zmm
 * accumulators. Per 4-byte unit of k: one 64-byte load per strip (16 columns' 4 bytes), then per
 * row its 4 bytes broadcast (an embedded {1to16} operand) and one dot-product instruction per
 * strip. Included once per instruction: ZMM_TILE_NAME is the tile's name, ZMM_DOT vpdpbusd
 * (int8: 4 products of u8 x s8) or vpdpwssd (16 bits: 2 of s16 x s16); undefines both at its end.
 */
static inline __attribute__((always_inline)) void CAT(ZMM_TILE_NAME, _body)(const int8_t *a, const uint8_t *b,
                                                                          ptrdiff_t kq, int32_t *tile,
                                                                          const int strips) {
    __m512i acc[8][3];
    for (int r = 0; r < 8; r++)
        for (int s = 0; s < 3; s++) acc[r][s] = _mm512_setzero_si512();
    const ptrdiff_t stride = kq * 64;
    for (ptrdiff_t q = 0; q < kq; q++) {
        __m512i x[3];
        for (int s = 0; s < strips; s++) x[s] = _mm512_loadu_si512((const void *)(b + s * stride + q * 64));
        const int8_t *w = a + q * 32;
        for (int r = 0; r < 8; r++) {
            int32_t word;
            memcpy(&word, w + r * 4, 4);
            const __m512i weights = _mm512_set1_epi32(word);
            for (int s = 0; s < strips; s++) acc[r][s] = ZMM_DOT(acc[r][s], x[s], weights);
        }
    }
    for (int r = 0; r < 8; r++)
        for (int s = 0; s < strips; s++) _mm512_storeu_si512((void *)(tile + r * INT8_TILE_WIDTH + s * 16), acc[r][s]);
}

static void ZMM_TILE_NAME(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    switch (strips) {
    case 3: CAT(ZMM_TILE_NAME, _body)(a, b, kq, tile, 3); return;
    case 2: CAT(ZMM_TILE_NAME, _body)(a, b, kq, tile, 2); return;
    default: CAT(ZMM_TILE_NAME, _body)(a, b, kq, tile, 1); return;
    }
}

#undef ZMM_TILE_NAME
#undef ZMM_DOT
