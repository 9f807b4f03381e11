/*
 * The AVX512_BF16 set: VCVTNEPS2BF16 packs the activations, VDPBF16PS multiplies (reduced.h).
 * Output columns are the vector lanes (16 per zmm register); each tile keeps ROWS x 3 registers
 * of sums and broadcasts one weight pair per row and K pair; K is taken in blocks (K_BLOCK).
 *
 * On another architecture the table is still compiled, so that a plan made there for an x86-64
 * CPU names this set (`info --plan --cpu x86-64-avx512-bf16`); its functions then trap. A network
 * only loads a plan whose kernels the running CPU executes.
 */
#include "../generic/ReducedCommon.h"

#if defined(__x86_64__)
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

/* ROWS rows from `weights` times VECTORS vectors of columns from j (the last masked by `last`),
 * over pairs [first, first + count): the sums start at zero for the first block of K, else from
 * what the previous block stored in c (a float32 round trip, exact: the same sums as one pass). */
static inline __attribute__((always_inline)) void tile(const int ROWS, const int VECTORS, const uint32_t *weights,
                                                       long pairs, long first, long count, const uint32_t *packed,
                                                       long columns, long j, __mmask16 last, float *c, long ldc) {
    __m512 sum[8][3];
    for (int r = 0; r < ROWS; r++)
        for (int v = 0; v < VECTORS; v++) {
            const __mmask16 mask = v == VECTORS - 1 ? last : (__mmask16)0xffff;
            sum[r][v] = first == 0 ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(mask, c + r * ldc + j + 16 * v);
        }
    for (long p = first; p < first + count; p++) {
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

/* Rows i..i+ROWS over every column, pairs [first, first + count). */
static inline __attribute__((always_inline)) void row_block(const int ROWS, const uint32_t *weights, long pairs,
                                                            long first, long count, const uint32_t *packed,
                                                            long columns, float *c, long ldc) {
    long j = 0;
    for (; j + 48 <= columns; j += 48) tile(ROWS, 3, weights, pairs, first, count, packed, columns, j, 0xffff, c, ldc);
    const long left = columns - j;
    if (left == 0) return;
    const long vectors = (left + 15) / 16;
    const __mmask16 last = (__mmask16)((1u << (left - (vectors - 1) * 16)) - 1);
    if (vectors == 3) tile(ROWS, 3, weights, pairs, first, count, packed, columns, j, last, c, ldc);
    else if (vectors == 2) tile(ROWS, 2, weights, pairs, first, count, packed, columns, j, last, c, ldc);
    else tile(ROWS, 1, weights, pairs, first, count, packed, columns, j, last, c, ldc);
}

/* Pairs of K per block: a block of 48 packed columns (48 KiB) stays in L1/L2 while every row
 * block passes over it, and a row block's weights (8 KiB) in L1. */
enum { K_BLOCK = 256 };

static void gemm_avx512(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                        float *c, long ldc) {
    for (long first = 0; first < pairs; first += K_BLOCK) {
        const long count = pairs - first < K_BLOCK ? pairs - first : K_BLOCK;
        /* The rows in the fewest blocks of at most 8, of near-equal size: a block of few rows
         * broadcasts few weights per three loads of columns (Winograd's bands pass 18 tiles as
         * rows: 6 + 6 + 6, not 8 + 8 + 2). */
        const long blocks = (m + 7) / 8;
        for (long b = 0; b < blocks; b++) {
            const long i = m * b / blocks, rows = m * (b + 1) / blocks - i;
            const uint32_t *w = weights + i * pairs;
            float *block_c = c + i * ldc;
            switch (rows) {
            case 8: row_block(8, w, pairs, first, count, packed, columns, block_c, ldc); break;
            case 7: row_block(7, w, pairs, first, count, packed, columns, block_c, ldc); break;
            case 6: row_block(6, w, pairs, first, count, packed, columns, block_c, ldc); break;
            case 5: row_block(5, w, pairs, first, count, packed, columns, block_c, ldc); break;
            case 4: row_block(4, w, pairs, first, count, packed, columns, block_c, ldc); break;
            case 3: row_block(3, w, pairs, first, count, packed, columns, block_c, ldc); break;
            case 2: row_block(2, w, pairs, first, count, packed, columns, block_c, ldc); break;
            default: row_block(1, w, pairs, first, count, packed, columns, block_c, ldc); break;
            }
        }
    }
}

#pragma clang attribute pop
#else
SWIFTDARKNET_REDUCED_ELSEWHERE(pack_avx512, gemm_avx512)
#endif

const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_avx512 = {
    .name = "avx512-bf16",
    .architecture = SWIFTDARKNET_ARCH_X86_64,
    .required_extensions = SWIFTDARKNET_CPU_AVX512F | SWIFTDARKNET_CPU_AVX512BW | SWIFTDARKNET_CPU_AVX512VL
        | SWIFTDARKNET_CPU_AVX512BF16,
    .format = SWIFTDARKNET_REDUCED_BF16,
    .reference = SWIFTDARKNET_BF16_PORTABLE,
    .pack = pack_avx512,
    .gemm = gemm_avx512,
    .pack_weights = swiftdarknet_bf16_pack_weights,
};
