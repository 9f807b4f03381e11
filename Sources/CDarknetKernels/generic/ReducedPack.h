/*
 * The packing the portable reduced-precision sets share (reduced.h): K rows of floats into pairs
 * of 16-bit values, element 2p low and 2p + 1 high, an odd K padded with +0, each value rounded
 * by `round` (swiftdarknet_bf16_from_float or swiftdarknet_fp16_from_float, inlined).
 */
#ifndef SWIFTDARKNET_REDUCED_PACK_H
#define SWIFTDARKNET_REDUCED_PACK_H
#include "CDarknetKernels/reduced.h"

#include <stddef.h>

typedef uint16_t reduced_round_fn(float value);

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
#endif
