/*
 * The int8 GEMM's AVX2 tile (no VNNI), one strip by 8 rows in two passes of 4 rows.
 * vpmaddubsw adds two u8 x s8 products into a saturating int16, which 255 x -128 twice would
 * overflow; every activation byte is therefore split into its nibbles (b = 16 hi + lo), each
 * vpmaddubsw sum is at most 2 x 15 x 128 = 3840, and vpmaddwd widens them to int32 with
 * weights 1 (lo) and 16 (hi). The sums are exact, so the tile equals the portable one.
 */
static void int8_tile_avx2(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    (void)strips; /* always 1: INT8_TILE_STRIPS */
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i one = _mm256_set1_epi16(1), sixteen = _mm256_set1_epi16(16);
    for (int half = 0; half < 2; half++) {
        __m256i acc[4][2];
        for (int r = 0; r < 4; r++) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
        for (ptrdiff_t q = 0; q < kq; q++) {
            const __m256i x0 = _mm256_loadu_si256((const __m256i *)(b + q * 64));
            const __m256i x1 = _mm256_loadu_si256((const __m256i *)(b + q * 64 + 32));
            const __m256i low0 = _mm256_and_si256(x0, nibble), high0 = _mm256_and_si256(_mm256_srli_epi16(x0, 4), nibble);
            const __m256i low1 = _mm256_and_si256(x1, nibble), high1 = _mm256_and_si256(_mm256_srli_epi16(x1, 4), nibble);
            const int8_t *w = a + q * 32 + half * 16;
            for (int r = 0; r < 4; r++) {
                int32_t word;
                memcpy(&word, w + r * 4, 4);
                const __m256i weights = _mm256_set1_epi32(word);
                const __m256i sum0 = _mm256_add_epi32(_mm256_madd_epi16(_mm256_maddubs_epi16(low0, weights), one),
                                                      _mm256_madd_epi16(_mm256_maddubs_epi16(high0, weights), sixteen));
                const __m256i sum1 = _mm256_add_epi32(_mm256_madd_epi16(_mm256_maddubs_epi16(low1, weights), one),
                                                      _mm256_madd_epi16(_mm256_maddubs_epi16(high1, weights), sixteen));
                acc[r][0] = _mm256_add_epi32(acc[r][0], sum0);
                acc[r][1] = _mm256_add_epi32(acc[r][1], sum1);
            }
        }
        for (int r = 0; r < 4; r++) {
            _mm256_storeu_si256((__m256i *)(tile + (half * 4 + r) * INT8_TILE_WIDTH), acc[r][0]);
            _mm256_storeu_si256((__m256i *)(tile + (half * 4 + r) * INT8_TILE_WIDTH + 8), acc[r][1]);
        }
    }
}
