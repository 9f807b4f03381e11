/*
 * What the reduced-precision sets share (reduced.h). The portable sets: the packing of K rows of
 * floats into pairs of 16-bit values (element 2p low, 2p + 1 high, an odd K padded with +0, each
 * value rounded by `round`: swiftdarknet_bf16_from_float or swiftdarknet_fp16_from_float,
 * inlined), and the GEMM's loop over each output's sums in K order, one pair at a time by
 * `step`. The SIMD sets: the functions that stand in for theirs on another architecture.
 */
#ifndef SWIFTDARKNET_REDUCED_COMMON_H
#define SWIFTDARKNET_REDUCED_COMMON_H
#include "CDarknetKernels/reduced.h"

#include <stddef.h>

typedef uint16_t reduced_round_fn(float value);

/* A float's bits, and the float of bits: what the portable sets' exact roundings work on. */
static inline uint32_t reduced_bits(float value) {
    union { float f; uint32_t u; } bits = { value };
    return bits.u;
}

static inline float reduced_float(uint32_t value) {
    union { uint32_t u; float f; } bits = { value };
    return bits.f;
}

/* `k` rows of `columns` floats (row i at b + i * ldb) into `(k + 1) / 2` rows of pairs. */
static inline __attribute__((always_inline)) void reduced_pack_columns(const float *b, long k, long ldb, long columns,
                                                                       uint32_t *pairs, reduced_round_fn *round) {
    for (long p = 0; p < (k + 1) / 2; p++) {
        const float *even = b + 2 * p * ldb, *odd = 2 * p + 1 < k ? even + ldb : NULL;
        for (long j = 0; j < columns; j++) {
            uint32_t low = round(even[j]);
            uint32_t high = odd ? round(odd[j]) : 0;
            pairs[p * columns + j] = low | high << 16;
        }
    }
}

/* A row-major `m x k` weight matrix into `m` rows of `(k + 1) / 2` pairs. */
static inline __attribute__((always_inline)) void reduced_pack_rows(const float *a, long m, long k, uint32_t *pairs,
                                                                    reduced_round_fn *round) {
    const long count = (k + 1) / 2;
    for (long i = 0; i < m; i++) {
        for (long p = 0; p < count; p++) {
            uint32_t low = round(a[i * k + 2 * p]);
            uint32_t high = 2 * p + 1 < k ? round(a[i * k + 2 * p + 1]) : 0;
            pairs[i * count + p] = low | high << 16;
        }
    }
}

/* A sum after one more pair: `sum` plus the products of the pair in `weight` by the pair in `x`,
 * in the set's arithmetic. */
typedef float reduced_step_fn(float sum, uint32_t weight, uint32_t x);

/* c[i * ldc + j] = the sum over p of `step`s from +0, for i < m, j < columns (the GEMM of
 * reduced.h): a row of sums at a time, so the packed rows are read in order; the same sums in
 * the same order as one output at a time. */
static inline __attribute__((always_inline)) void reduced_gemm_rows(const uint32_t *weights, long m, long pairs,
                                                                    const uint32_t *packed, long columns, float *c,
                                                                    long ldc, reduced_step_fn *step) {
    for (long i = 0; i < m; i++) {
        float *sums = c + i * ldc;
        for (long j = 0; j < columns; j++) sums[j] = 0;
        for (long p = 0; p < pairs; p++) {
            const uint32_t weight = weights[i * pairs + p], *x = packed + p * columns;
            for (long j = 0; j < columns; j++) sums[j] = step(sums[j], weight, x[j]);
        }
    }
}

/* A SIMD set's `pack` and `gemm` off its own architecture: its table is compiled everywhere, so
 * that plans for that architecture's CPUs name it, but a network only loads a plan whose
 * kernels the running CPU executes, so these never run. */
#define SWIFTDARKNET_REDUCED_ELSEWHERE(pack, gemm)                                                        \
    static void pack(const float *b, long k, long ldb, long columns, uint32_t *pairs) {                  \
        (void)b, (void)k, (void)ldb, (void)columns, (void)pairs;                                          \
        __builtin_trap();                                                                                 \
    }                                                                                                     \
    static void gemm(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,  \
                     float *c, long ldc) {                                                                \
        (void)weights, (void)m, (void)pairs, (void)packed, (void)columns, (void)c, (void)ldc;             \
        __builtin_trap();                                                                                 \
    }
#endif
