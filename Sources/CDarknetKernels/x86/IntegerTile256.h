/*
 * The integer GEMM's 256-bit tile, one strip (16 columns = 2 ymm) by 8 rows, in two passes of 4
 * rows so the 8 accumulators, 2 activation vectors and the broadcast fit AVX-VNNI's 16 ymm
 * registers. Included once per multiply-add step, with TILE256_STEP the VEX (AVX-VNNI) or EVEX
 * (AVX-512 VNNI + VL) vpdpbusd or vpdpwssd, or an AVX2 step that does their work
 * (IntegerSteps.h), and TILE256_NAME the tile's name; undefines both at its end.
 */
static void TILE256_NAME(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    (void)strips; /* always 1: INT8_TILE_STRIPS */
    for (int half = 0; half < 2; half++) {
        __m256i acc[4][2];
        for (int r = 0; r < 4; r++) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
        for (ptrdiff_t q = 0; q < kq; q++) {
            const __m256i x0 = _mm256_loadu_si256((const __m256i *)(b + q * 64));
            const __m256i x1 = _mm256_loadu_si256((const __m256i *)(b + q * 64 + 32));
            const int8_t *w = a + q * 32 + half * 16;
            for (int r = 0; r < 4; r++) {
                int32_t word;
                memcpy(&word, w + r * 4, 4);
                const __m256i weights = _mm256_set1_epi32(word);
                acc[r][0] = TILE256_STEP(acc[r][0], x0, weights);
                acc[r][1] = TILE256_STEP(acc[r][1], x1, weights);
            }
        }
        for (int r = 0; r < 4; r++) {
            _mm256_storeu_si256((__m256i *)(tile + (half * 4 + r) * INT8_TILE_WIDTH), acc[r][0]);
            _mm256_storeu_si256((__m256i *)(tile + (half * 4 + r) * INT8_TILE_WIDTH + 8), acc[r][1]);
        }
    }
}

#undef TILE256_NAME
#undef TILE256_STEP
