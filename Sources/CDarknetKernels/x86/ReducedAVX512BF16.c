/*
 * The AVX512_BF16 set: VCVTNEPS2BF16 packs the activations, VDPBF16PS multiplies (reduced.h).
 * Output columns are the vector lanes (16 per zmm register); each tile keeps ROWS x 3 registers
 * of sums and broadcasts one weight pair per row and K pair.
 */
#if defined(__x86_64__)
#include "CDarknetKernels/reduced.h"

#include <immintrin.h>

#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16"))), apply_to = function)

/* Columns j..j+n (n <= 16) of a float row as bfloat16, zero-extended into 32-bit lanes. */
static inline __m512i widened(const float *row, __mmask16 mask) {
    __m256bh half = _mm512_cvtneps_pbh(_mm512_maskz_loadu_ps(mask, row));
    return _mm512_cvtepu16_epi32((__m256i)half);
}

static void pack_avx512(const float *b, long k, long ldb, long columns, uint32_t *pairs) {
    for (long p = 0; p < (k + 1) / 2; p++) {
        const float *even = b + 2 * p * ldb, *odd = even + ldb;
        const int hasOdd = 2 * p + 1 < k;
        for (long j = 0; j < columns; j += 16) {
            const long n = columns - j < 16 ? columns - j : 16;
            const __mmask16 mask = (__mmask16)((1u << n) - 1);
            __m512i low = widened(even + j, mask);
            __m512i high = hasOdd ? _mm512_slli_epi32(widened(odd + j, mask), 16) : _mm512_setzero_si512();
            _mm512_mask_storeu_epi32(pairs + p * columns + j, mask, _mm512_or_si512(low, high));
        }
    }
}

/* ROWS rows from `weights` times VECTORS vectors of columns from j (the last masked by `last`). */
static inline __attribute__((always_inline)) void tile(const int ROWS, const int VECTORS, const uint32_t *weights,
                                                       long pairs, const uint32_t *packed, long columns, long j,
                                                       __mmask16 last, float *c, long ldc) {
    __m512 sum[8][3];
    for (int r = 0; r < ROWS; r++)
        for (int v = 0; v < VECTORS; v++) sum[r][v] = _mm512_setzero_ps();
    for (long p = 0; p < pairs; p++) {
        const uint32_t *x = packed + p * columns + j;
        __m512bh in[3];
        for (int v = 0; v < VECTORS; v++)
            in[v] = (__m512bh)(v == VECTORS - 1 ? _mm512_maskz_loadu_epi32(last, x + 16 * v) : _mm512_loadu_si512(x + 16 * v));
        for (int r = 0; r < ROWS; r++) {
            __m512bh w = (__m512bh)_mm512_set1_epi32((int)weights[r * pairs + p]);
            for (int v = 0; v < VECTORS; v++) sum[r][v] = _mm512_dpbf16_ps(sum[r][v], in[v], w);
        }
    }
    for (int r = 0; r < ROWS; r++)
        for (int v = 0; v < VECTORS; v++)
            _mm512_mask_storeu_ps(c + r * ldc + j + 16 * v, v == VECTORS - 1 ? last : (__mmask16)0xffff, sum[r][v]);
}

/* All rows over columns j..j+VECTORS*16 (the last vector masked). */
static inline __attribute__((always_inline)) void column_block(const int VECTORS, const uint32_t *weights, long m,
                                                               long pairs, const uint32_t *packed, long columns, long j,
                                                               __mmask16 last, float *c, long ldc) {
    long i = 0;
    for (; i + 8 <= m; i += 8) tile(8, VECTORS, weights + i * pairs, pairs, packed, columns, j, last, c + i * ldc, ldc);
    for (; i + 4 <= m; i += 4) tile(4, VECTORS, weights + i * pairs, pairs, packed, columns, j, last, c + i * ldc, ldc);
    for (; i < m; i++) tile(1, VECTORS, weights + i * pairs, pairs, packed, columns, j, last, c + i * ldc, ldc);
}

static void gemm_avx512(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                        float *c, long ldc) {
    long j = 0;
    for (; j + 48 <= columns; j += 48) column_block(3, weights, m, pairs, packed, columns, j, 0xffff, c, ldc);
    const long left = columns - j;
    if (left == 0) return;
    const long vectors = (left + 15) / 16;
    const __mmask16 last = (__mmask16)((1u << (left - (vectors - 1) * 16)) - 1);
    if (vectors == 3) column_block(3, weights, m, pairs, packed, columns, j, last, c, ldc);
    else if (vectors == 2) column_block(2, weights, m, pairs, packed, columns, j, last, c, ldc);
    else column_block(1, weights, m, pairs, packed, columns, j, last, c, ldc);
}

#pragma clang attribute pop

const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_avx512 = {
    .name = "avx512-bf16",
    .architecture = SWIFTDARKNET_ARCH_X86_64,
    .required_extensions = SWIFTDARKNET_CPU_AVX512F | SWIFTDARKNET_CPU_AVX512BW | SWIFTDARKNET_CPU_AVX512VL
        | SWIFTDARKNET_CPU_AVX512BF16,
    .pack = pack_avx512,
    .gemm = gemm_avx512,
};
#endif
