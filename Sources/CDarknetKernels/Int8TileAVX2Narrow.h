/*
 * The int8 GEMM's AVX2 tile for 7-bit weights (SWIFTDARKNET_INT8_AVX2_NARROW), one strip by 8
 * rows in two passes of 4 rows. vpmaddubsw adds two u8 x s8 products into a saturating int16;
 * with weights within +-SWIFTDARKNET_INT8_NARROW_LIMIT (63) the pair is at most 2 x 255 x 63 =
 * 32130 and never saturates, so one vpmaddubsw and one vpmaddwd (by 1, to int32) give each
 * 4-product sum exactly, at half the instructions of the nibble-split tile (Int8TileAVX2.h).
 * Callers check the weights' range.
 */
static void int8_tile_avx2_narrow(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    (void)strips; /* always 1: INT8_TILE_STRIPS */
    const __m256i one = _mm256_set1_epi16(1);
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
                acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(_mm256_maddubs_epi16(x0, weights), one));
                acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(_mm256_maddubs_epi16(x1, weights), one));
            }
        }
        for (int r = 0; r < 4; r++) {
            _mm256_storeu_si256((__m256i *)(tile + (half * 4 + r) * INT8_TILE_WIDTH), acc[r][0]);
            _mm256_storeu_si256((__m256i *)(tile + (half * 4 + r) * INT8_TILE_WIDTH + 8), acc[r][1]);
        }
    }
}
