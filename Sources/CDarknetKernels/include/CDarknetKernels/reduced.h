#ifndef SWIFTDARKNET_REDUCED_H
#define SWIFTDARKNET_REDUCED_H
/*
 * Reduced-precision float arithmetic: 16-bit float products summed in float32, in two formats
 * (a table's `format`), each with a portable set that emulates one instruction's arithmetic
 * bit for bit (a table's `reference`), and SIMD sets that equal it.
 *
 * Operands are packed in pairs along the GEMM's K: a 32-bit word holds element 2p in its low
 * half and 2p + 1 in its high half (an odd K is padded with +0).
 *
 * bfloat16 (SWIFTDARKNET_REDUCED_BF16): a bfloat16 value is the upper 16 bits of a float32.
 * Each output sums, for p = 0, 1, ..., first the high products, then the low ones, into a
 * float32 accumulator started at +0, each product added exactly and the sum rounded to nearest
 * even (a fused multiply-add), with bfloat16 denormal operands read as zero and denormal sums
 * flushed to zero: the arithmetic of x86's VDPBF16PS (AVX512_BF16). arm64's BFDOT (FEAT_BF16,
 * FPCR.EBF clear) sums otherwise: per pair, the low and high products, their sum, then that sum
 * added to the accumulator, each rounded to odd, denormals flushed: a second portable set
 * (SWIFTDARKNET_BF16_PORTABLE_ARM) writes that out, and arm64's BFMMLA takes the same steps in
 * the same order. All round operands to bfloat16 the same way (VCVTNEPS2BF16's).
 *
 * float16 (SWIFTDARKNET_REDUCED_FP16): IEEE half precision (5 exponent bits, 10 fraction bits,
 * denormals kept), rounded to nearest even from float32 as FCVTN does (overflow to infinity,
 * NaNs made quiet). Each output sums the products in K order (2p, then 2p + 1) into a float32
 * accumulator started at +0, each step one fused multiply-add (fmaf: the product of two halves
 * is exact in float32, so one rounding per addition, denormal sums kept): the arithmetic of
 * arm64's FMLAL/FMLAL2 (FEAT_FHM) with the FPCR Linux and Apple start a thread with (FZ, FZ16,
 * DN clear; round to nearest).
 *
 * float16 in half sums (the same format; SWIFTDARKNET_FP16_PORTABLE_HALF_SUMS): for CPUs with
 * FEAT_FP16 but not FEAT_FHM (Cortex-A76, Raspberry Pi 5, Neoverse N1), whose only half
 * multiply-add is FMLA on 8 half lanes. Each output's K is taken in blocks of
 * SWIFTDARKNET_FP16_HALF_SUM_PAIRS pairs from p = 0: a half sum started at +0 adds the block's
 * products in K order (2p, then 2p + 1), each step one fused multiply-add rounded to half
 * (nearest even, denormals kept, beyond 65504 to infinity); the block's half sum is then added
 * to a float32 accumulator started at +0 (rounded to nearest even). So no half sum holds more
 * than 2 x SWIFTDARKNET_FP16_HALF_SUM_PAIRS products, and the accumulation across blocks is
 * float32.
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
    SWIFTDARKNET_FP16_PORTABLE = 2,   /* plain C: FMLAL's arithmetic, the float16 reference */
    SWIFTDARKNET_FP16_FHM = 3,        /* FMLAL/FMLAL2 on arm64 (FEAT_FP16 + FEAT_FHM) */
    SWIFTDARKNET_BF16_PORTABLE_ARM = 4, /* plain C: BFDOT's arithmetic (FPCR.EBF clear), the arm64 bfloat16 reference */
    SWIFTDARKNET_BF16_BFDOT = 5,      /* BFDOT on arm64 (FEAT_BF16) */
    SWIFTDARKNET_BF16_BFMMLA = 6,     /* BFMMLA on arm64 (FEAT_BF16): BFDOT's sums, 2x2 blocks */
    SWIFTDARKNET_FP16_PORTABLE_HALF_SUMS = 7, /* plain C: FMLA .8H's arithmetic in blocks, the half-sum reference */
    SWIFTDARKNET_FP16_FMLA = 8,       /* FMLA on half lanes, blocks into float32 on arm64 (FEAT_FP16) */
    SWIFTDARKNET_BF16_TARGETS = 9
};

/* Pairs of K (products: twice as many) each half sum of the half-sum float16 sets adds before
 * its block is added into float32. */
#define SWIFTDARKNET_FP16_HALF_SUM_PAIRS 4

/* The 16-bit formats (a table's `format`). */
enum {
    SWIFTDARKNET_REDUCED_BF16 = 0,
    SWIFTDARKNET_REDUCED_FP16 = 1
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

/* float32 -> IEEE half as FCVTN rounds by default: nearest even, overflow to infinity, denormal
 * halves kept, NaNs made quiet (their upper fraction bits kept). */
static inline uint16_t swiftdarknet_fp16_from_float(float value) {
    union { float f; uint32_t u; } bits = { value };
    const uint32_t sign = (bits.u >> 16) & 0x8000u, a = bits.u & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);  /* 65520 and up round to infinity */
    if (a >= 0x38800000u) {                                    /* normal halves: from 2^-14 */
        const uint32_t rounded = a + 0xfffu + ((a >> 13) & 1u);
        return (uint16_t)(sign | ((rounded - 0x38000000u) >> 13));
    }
    if (a <= 0x33000000u) return (uint16_t)sign;               /* up to 2^-25 (a tie): zero */
    /* Denormal halves, units of 2^-24: the significand shifted right, rounded to nearest even. */
    const uint32_t significand = (a & 0x7fffffu) | 0x800000u, shift = 126u - (a >> 23);
    const uint32_t rest = significand & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    uint32_t units = significand >> shift;
    if (rest > half || (rest == half && (units & 1u))) units++;
    return (uint16_t)(sign | units);
}

/* The float32 value of an IEEE half (exact). */
static inline float swiftdarknet_float_from_fp16(uint16_t value) {
    const uint32_t sign = (uint32_t)(value & 0x8000u) << 16, exponent = (value >> 10) & 0x1fu, fraction = value & 0x3ffu;
    union { uint32_t u; float f; } bits;
    if (exponent == 0) {
        const float magnitude = (float)fraction * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    bits.u = sign | (exponent == 31 ? 0x7f800000u : (exponent + 112u) << 23) | fraction << 13;
    return bits.f;
}

/* Packs `k` rows of `columns` floats (row i at b + i * ldb) into `(k + 1) / 2` rows of
 * `columns` bfloat16 pairs: pairs[p * columns + j] holds rows 2p (low) and 2p + 1 (high) of
 * column j. */
typedef void swiftdarknet_bf16_pack_fn(const float *_Nonnull b, long k, long ldb, long columns,
                                       uint32_t *_Nonnull pairs);

/* c[i * ldc + j] = sum over p of weights[i * pairs + p] . packed[p * columns + j], for
 * i < m, j < columns (the summation of the header comment for the set's format). */
typedef void swiftdarknet_bf16_gemm_fn(const uint32_t *_Nonnull weights, long m, long pairs,
                                       const uint32_t *_Nonnull packed, long columns,
                                       float *_Nonnull c, long ldc);

/* Packs a row-major `m x k` weight matrix into `m` rows of `(k + 1) / 2` pairs. */
typedef void swiftdarknet_bf16_pack_weights_fn(const float *_Nonnull a, long m, long k, uint32_t *_Nonnull pairs);

/* One set of reduced-precision kernels (either format; the name is bfloat16's, the first). */
typedef struct {
    const char *_Nonnull name;
    /* The architecture the set is compiled for and the extensions it needs (cpu.h). */
    int architecture;
    uint32_t required_extensions;
    /* SWIFTDARKNET_REDUCED_*: the operands' format. */
    int format;
    /* The portable set (SWIFTDARKNET_BF16_* / FP16_* target) this set equals bit for bit. */
    int reference;
    swiftdarknet_bf16_pack_fn *_Nonnull pack;
    swiftdarknet_bf16_gemm_fn *_Nonnull gemm;
    /* The weights' packing: the format's portable one on every set of it. */
    swiftdarknet_bf16_pack_weights_fn *_Nonnull pack_weights;
} swiftdarknet_bf16_kernels;

/* The set `target` (SWIFTDARKNET_BF16_*), or NULL when this build has none for it. */
const swiftdarknet_bf16_kernels *_Nullable swiftdarknet_bf16_kernel_set(int target);

/* Packs a row-major `m x k` weight matrix into `m` rows of `(k + 1) / 2` bfloat16 pairs (the
 * same on every set). */
void swiftdarknet_bf16_pack_weights(const float *_Nonnull a, long m, long k, uint32_t *_Nonnull pairs);

/* The same for IEEE halves (swiftdarknet_fp16_from_float). */
void swiftdarknet_fp16_pack_weights(const float *_Nonnull a, long m, long k, uint32_t *_Nonnull pairs);

#ifdef __cplusplus
}
#endif
#endif
