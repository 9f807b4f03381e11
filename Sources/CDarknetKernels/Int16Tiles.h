/*
 * The 16-bit GEMM's tiles (Int16Kernels.c): the int8 tiles' loops and packed layouts
 * (darknet_int8.h) with each 4-byte unit of k holding two int16 values, an activation pair in B
 * and a weight pair in A, multiplied and summed pairwise. The portable tile is the reference;
 * the SIMD ones are the int8 tiles' headers with vpdpwssd (or vpmaddwd) for vpdpbusd.
 */
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

#if defined(__x86_64__)
/* AVX2: vpmaddwd's two products per lane (K * limit^2 < 2^31 with K >= 2, so the pair never
 * overflows) added to the accumulator: what vpdpwssd does in one instruction. */
__attribute__((target("avx2"), always_inline)) static inline __m256i int16_madd_avx2(__m256i acc, __m256i x, __m256i w) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(x, w));
}
#endif
