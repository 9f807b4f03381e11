#ifndef SWIFTDARKNET_REDUCED_H
#define SWIFTDARKNET_REDUCED_H
/*
 * Reduced-precision float arithmetic: bfloat16 products summed in float32.
 *
 * A bfloat16 value is the upper 16 bits of a float32. Operands are packed in pairs along the
 * GEMM's K: a 32-bit word holds element 2p in its low half and 2p + 1 in its high half (an odd
 * K is padded with +0). Each output sums, for p = 0, 1, ..., first the high products, then the
 * low ones, into a float32 accumulator started at +0, rounding to nearest even after each
 * addition, with bfloat16 denormal operands read as zero and denormal results flushed to zero:
 * the arithmetic of x86's VDPBF16PS (AVX512_BF16). The portable set computes exactly that, so
 * every set gives the same bits.
 *
 * Each set's table declares the architecture and the CPU extensions it needs
 * (SWIFTDARKNET_ARCH_*, SWIFTDARKNET_CPU_* bits): the Swift side reads them from the table.
 */
#include <stdint.h>

#include "cpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reduced-precision kernel sets. */
enum {
    SWIFTDARKNET_BF16_PORTABLE = 0,   /* plain C: the reference */
    SWIFTDARKNET_BF16_AVX512 = 1,     /* VDPBF16PS on zmm registers (AVX512_BF16) */
    SWIFTDARKNET_BF16_TARGETS = 2
};

/* float32 -> bfloat16 as VCVTNEPS2BF16 rounds: nearest even, denormals to signed zero, NaNs
 * made quiet. */
static inline uint16_t swiftdarknet_bf16_from_float(float value) {
    union { float f; uint32_t u; } bits = { value };
    uint32_t u = bits.u;
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
    if ((u & 0x7f800000u) == 0) return (uint16_t)((u >> 16) & 0x8000u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* The float32 value of a bfloat16. */
static inline float swiftdarknet_float_from_bf16(uint16_t value) {
    union { uint32_t u; float f; } bits = { (uint32_t)value << 16 };
    return bits.f;
}

/* Packs `k` rows of `columns` floats (row i at b + i * ldb) into `(k + 1) / 2` rows of
 * `columns` bfloat16 pairs: pairs[p * columns + j] holds rows 2p (low) and 2p + 1 (high) of
 * column j. */
typedef void swiftdarknet_bf16_pack_fn(const float *_Nonnull b, long k, long ldb, long columns,
                                       uint32_t *_Nonnull pairs);

/* c[i * ldc + j] = sum over p of weights[i * pairs + p] . packed[p * columns + j], for
 * i < m, j < columns (the summation of the header comment). */
typedef void swiftdarknet_bf16_gemm_fn(const uint32_t *_Nonnull weights, long m, long pairs,
                                       const uint32_t *_Nonnull packed, long columns,
                                       float *_Nonnull c, long ldc);

typedef struct {
    const char *_Nonnull name;
    /* The architecture the set is compiled for and the extensions it needs (cpu.h). */
    int architecture;
    uint32_t required_extensions;
    swiftdarknet_bf16_pack_fn *_Nonnull pack;
    swiftdarknet_bf16_gemm_fn *_Nonnull gemm;
} swiftdarknet_bf16_kernels;

/* The set `target` (SWIFTDARKNET_BF16_*), or NULL when this build has none for it. */
const swiftdarknet_bf16_kernels *_Nullable swiftdarknet_bf16_kernel_set(int target);

/* Packs a row-major `m x k` weight matrix into `m` rows of `(k + 1) / 2` bfloat16 pairs (the
 * same on every set). */
void swiftdarknet_bf16_pack_weights(const float *_Nonnull a, long m, long k, uint32_t *_Nonnull pairs);

#ifdef __cplusplus
}
#endif
#endif
