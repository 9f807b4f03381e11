/*
 * The 16-bit GEMM's tiles (Int16Kernels.c): the int8 tiles' loops and packed layouts
 * (darknet_int8.h) with each 4-byte unit of k holding two int16 values, an activation pair in B
 * and a weight pair in A, multiplied and summed pairwise. The portable tile is the reference;
 * the AVX-512 one has vpdpwssd where the int8 tile has vpdpbusd.
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

__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline)) static inline void
int16_tile_zmm(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int32_t *tile, const int strips) {
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
            for (int s = 0; s < strips; s++) acc[r][s] = _mm512_dpwssd_epi32(acc[r][s], x[s], weights);
        }
    }
    for (int r = 0; r < 8; r++)
        for (int s = 0; s < strips; s++) _mm512_storeu_si512((void *)(tile + r * INT8_TILE_WIDTH + s * 16), acc[r][s]);
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) static void
int16_tile_avx512vnni(const int8_t *a, const uint8_t *b, ptrdiff_t kq, int strips, int32_t *tile) {
    switch (strips) {
    case 3: int16_tile_zmm(a, b, kq, tile, 3); return;
    case 2: int16_tile_zmm(a, b, kq, tile, 2); return;
    default: int16_tile_zmm(a, b, kq, tile, 1); return;
    }
}
#endif
