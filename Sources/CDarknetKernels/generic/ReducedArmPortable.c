/*
 * The portable arm64 bfloat16 set: BFDOT's arithmetic without FEAT_EBF16 (FPCR.EBF clear) in
 * plain C (reduced.h), the reference the BFDOT set matches bit for bit. It shares the x86
 * sets' packing and rounding (reduced.h); only the summation differs from VDPBF16PS's.
 *
 * Per pair of K, as the Arm ARM's BFDotAdd and qemu's bfdotadd compute it: the two products,
 * then their sum, then that sum added to the accumulator, each rounded to odd (overflow to
 * infinity), with denormal inputs read as zero and denormal results flushed to zero, NaNs the
 * default NaN. A product of two bfloat16 values is exact in float32 (16 significant bits) unless
 * it overflows or is tiny; each sum of two floats is computed exactly as a double and its
 * rounding error (TwoSum), and then rounded to odd at float32's precision. The GEMM takes a
 * branch-free path for the usual values (which compilers vectorize: about 3x faster) and sums a
 * row again on the full path when it meets an infinity, a NaN or an overflow.
 */
#include "ReducedCommon.h"

#include <math.h>
#include <stddef.h>

/* Denormals to signed zero. */
static inline float flushed(float value) {
    const uint32_t u = reduced_bits(value);
    return (u & 0x7f800000u) == 0 ? reduced_float(u & 0x80000000u) : value;
}

/* The exact value s + e (s a double, e its rounding error from TwoSum, |e| <= half an ulp of s)
 * rounded to odd at float32 precision: truncated toward zero, the last bit set if inexact;
 * magnitudes from 2^128 become infinite, below 2^-126 signed zero (tiny before rounding). */
static float round_to_odd(double s, double e) {
    if (isnan(s)) return reduced_float(0x7fc00000u);
    const double magnitude = fabs(s);
    const uint32_t sign = signbit(s) ? 0x80000000u : 0;
    const int below = e != 0 && (e < 0) != (s < 0);   /* the exact value is nearer zero than s */
    if (magnitude >= 0x1p128) return reduced_float(sign | 0x7f800000u);
    if (magnitude < 0x1p-126 || (magnitude == 0x1p-126 && below)) return reduced_float(sign);
    union { double d; uint64_t u; } bits = { magnitude };
    const uint64_t dropped = bits.u & ((1ull << 29) - 1);
    const int exponent = (int)(bits.u >> 52) - 1023;
    uint32_t f = (uint32_t)(exponent + 127) << 23 | (uint32_t)((bits.u >> 29) & 0x7fffffu);
    if (dropped == 0 && below) f -= 1;                /* exactly on a float, the exact value under it */
    if (dropped != 0 || e != 0) f |= 1;
    return reduced_float(sign | f);
}

/* a + b rounded to odd, flushed (both already flushed, finite or not). */
static inline float add_odd(float a, float b) {
    if (isinf(a) || isinf(b)) {
        const float s = a + b;
        return isnan(s) ? reduced_float(0x7fc00000u) : s;
    }
    const double x = a, y = b, s = x + y, yy = s - x, e = (x - (s - yy)) + (y - yy);
    if (s == 0) return (float)s;                       /* exact zero: +0, or -0 for -0 + -0 */
    return round_to_odd(s, e);
}

/* The product of two bfloat16 values (denormals already zero), rounded to odd: exact unless
 * tiny (flushed) or beyond float32 (infinite). */
static inline float mul_odd(float a, float b) {
    const double p = (double)a * (double)b;
    if (isnan(p)) return reduced_float(0x7fc00000u);
    if (p == 0 || isinf(p)) return (float)p;
    return round_to_odd(p, 0);
}

/* The value of one half of a pair, denormals read as zero. */
static inline float operand(uint32_t pair, int high) {
    return flushed(swiftdarknet_float_from_bf16((uint16_t)(high ? pair >> 16 : pair & 0xffffu)));
}

static void pack_portable(const float *b, long k, long ldb, long columns, uint32_t *pairs) {
    reduced_pack_columns(b, k, ldb, columns, pairs, swiftdarknet_bf16_from_float);
}

/* BFDotAdd on one pair: the two products, their sum, then that sum added to the lane's. */
static inline float step(float sum, uint32_t w, uint32_t x) {
    const float low = mul_odd(operand(w, 0), operand(x, 0)), high = mul_odd(operand(w, 1), operand(x, 1));
    return add_odd(flushed(sum), add_odd(low, high));
}

static inline uint64_t double_bits(double value) {
    union { double d; uint64_t u; } bits = { value };
    return bits.u;
}

/* add_odd for the usual case, without branches: a and b finite and flushed, their sum below
 * 2^128. Sets `*unusual` where that does not hold (an infinity, a NaN or an overflow), and
 * the caller then computes with add_odd. Otherwise the same steps as add_odd and round_to_odd:
 * TwoSum's s and e, truncation at float32's precision, the last bit set if inexact, results
 * below 2^-126 (before rounding) signed zero. */
static inline float add_odd_usual(float a, float b, uint32_t *unusual) {
    const double x = a, y = b, s = x + y, yy = s - x, e = (x - (s - yy)) + (y - yy);
    const uint64_t sb = double_bits(s), eb = double_bits(e), magnitude = sb & 0x7fffffffffffffffull;
    const uint32_t sign = (uint32_t)(sb >> 32) & 0x80000000u;
    const uint64_t smallest = 0x3810000000000000ull, overflow = 0x47f0000000000000ull; /* 2^-126, 2^128 */
    *unusual |= magnitude >= overflow;
    const uint32_t inexact = (eb << 1) != 0;
    const uint32_t below = inexact & ((uint32_t)(eb >> 63) != (uint32_t)(sb >> 63));
    const uint32_t dropped = (magnitude & ((1ull << 29) - 1)) != 0;
    uint32_t f = (uint32_t)((magnitude >> 29) - ((uint64_t)(1023 - 127) << 23));
    f -= (dropped ^ 1u) & below;
    f |= dropped | inexact;
    const uint32_t tiny = magnitude < smallest || (magnitude == smallest && below);
    return reduced_float(tiny ? sign : sign | f);
}

/* step, for the usual case: both products exact or flushed in float32 (a product of two
 * bfloat16 values has 16 significant bits, so float32 rounds it only below 2^-133, where it
 * is flushed anyway). Sets `*unusual` as add_odd_usual does: an infinite or NaN product makes
 * their sum one. */
static inline float step_usual(float sum, uint32_t w, uint32_t x, uint32_t *unusual) {
    const float low = flushed(operand(w, 0) * operand(x, 0)), high = flushed(operand(w, 1) * operand(x, 1));
    return add_odd_usual(flushed(sum), add_odd_usual(low, high, unusual), unusual);
}

/* A row of sums by step_usual; a row that meets an unusual value is summed again by step. */
static void gemm_portable(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                          float *c, long ldc) {
    for (long i = 0; i < m; i++) {
        float *sums = c + i * ldc;
        uint32_t unusual = 0;
        for (long j = 0; j < columns; j++) sums[j] = 0;
        for (long p = 0; p < pairs; p++) {
            const uint32_t weight = weights[i * pairs + p], *x = packed + p * columns;
            for (long j = 0; j < columns; j++) sums[j] = step_usual(sums[j], weight, x[j], &unusual);
        }
        if (unusual) reduced_gemm_rows(weights + i * pairs, 1, pairs, packed, columns, sums, ldc, step);
    }
}

const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_portable_arm = {
    .name = "portable-arm-bf16",
    .architecture = SWIFTDARKNET_ARCH_OTHER,
    .required_extensions = 0,
    .format = SWIFTDARKNET_REDUCED_BF16,
    .reference = SWIFTDARKNET_BF16_PORTABLE_ARM,
    .pack = pack_portable,
    .gemm = gemm_portable,
    .pack_weights = swiftdarknet_bf16_pack_weights,
};
