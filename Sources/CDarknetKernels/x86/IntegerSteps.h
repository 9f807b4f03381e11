/*
 * AVX2's multiply-add steps, which the 256-bit tile (IntegerTile256.h) runs in place of the
 * VNNI instructions on CPUs without them.
 *
 * For any 8-bit weights, in place of vpdpbusd. vpmaddubsw adds two u8 x s8 products into a
 * saturating int16, which 255 x -128 twice would overflow; every activation byte is therefore
 * split into its nibbles (x = 16 hi + lo), each vpmaddubsw sum is at most 2 x 15 x 128 = 3840, and
 * vpmaddwd widens them to int32 with weights 1 (lo) and 16 (hi). The sums are exact. The split
 * depends on the activations alone, which the tile multiplies by four weight broadcasts: once the
 * step is inlined, the compiler splits each activation vector once.
 */
__attribute__((target("avx2"), always_inline)) static inline __m256i int8_dot_avx2_nibbles(__m256i acc, __m256i x,
                                                                                          __m256i w) {
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i low = _mm256_and_si256(x, nibble), high = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
    const __m256i low_sums = _mm256_madd_epi16(_mm256_maddubs_epi16(low, w), _mm256_set1_epi16(1));
    const __m256i high_sums = _mm256_madd_epi16(_mm256_maddubs_epi16(high, w), _mm256_set1_epi16(16));
    return _mm256_add_epi32(acc, _mm256_add_epi32(low_sums, high_sums));
}

/*
 * For 7-bit weights (SWIFTDARKNET_INT8_AVX2_NARROW), in place of vpdpbusd. vpmaddubsw adds two
 * u8 x s8 products into a saturating int16; with weights within +-SWIFTDARKNET_INT8_NARROW_LIMIT (63) the pair is at
 * most 2 x 255 x 63 = 32130 and never saturates, so vpmaddwd by 1 then gives each 4-product sum
 * exactly, at half the instructions of the nibble-split step. Callers check
 * the weights' range.
 */
__attribute__((target("avx2"), always_inline)) static inline __m256i int8_dot_avx2_narrow(__m256i acc, __m256i x,
                                                                                         __m256i w) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)));
}

/* For 16-bit codes, in place of vpdpwssd: vpmaddwd's two products per lane (K * limit^2 < 2^31
 * with K >= 2, so the pair never overflows) added to the accumulator. */
__attribute__((target("avx2"), always_inline)) static inline __m256i int16_madd_avx2(__m256i acc, __m256i x, __m256i w) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(x, w));
}
