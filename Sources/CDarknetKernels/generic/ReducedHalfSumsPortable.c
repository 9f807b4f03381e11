/*
 * The portable float16 set in half sums: the arithmetic of FMLA on half lanes (FEAT_FP16) in
 * blocks of SWIFTDARKNET_FP16_HALF_SUM_PAIRS pairs added into float32 (reduced.h), in plain C,
 * the reference the arm64 FMLA set matches bit for bit. Packing is the float16 sets' own.
 */
#include "ReducedCommon.h"

static void pack_portable(const float *b, long k, long ldb, long columns, uint32_t *pairs) {
    reduced_pack_columns(b, k, ldb, columns, pairs, swiftdarknet_fp16_from_float);
}

/* A half's float32 value, as swiftdarknet_float_from_fp16, without branches (the GEMM's loop
 * over columns then vectorizes). */
static inline float widened(uint32_t half) {
    const uint32_t sign = (half & 0x8000u) << 16, exponent = (half >> 10) & 0x1fu, fraction = half & 0x3ffu;
    const uint32_t normal = exponent == 31 ? 0x7f800000u | fraction << 13 : (exponent + 112u) << 23 | fraction << 13;
    const float magnitude = exponent == 0 ? (float)fraction * 0x1p-24f : reduced_float(normal);
    return reduced_float(reduced_bits(magnitude) | sign);
}

/* The float32 bits `u` rounded to the nearest half, ties to even, as a float32 value: what
 * swiftdarknet_fp16_from_float then swiftdarknet_float_from_fp16 give, without branches. From
 * 2^-14 up, the fraction keeps 10 bits (65520 and up: infinity); below, multiples of 2^-24,
 * which adding and taking away 0.5 rounds to (float32's step from 0.5 to 1 is 2^-24). */
static inline float half_value(uint32_t u) {
    const uint32_t sign = u & 0x80000000u, a = u & 0x7fffffffu;
    uint32_t normal = (a + 0xfffu + ((a >> 13) & 1u)) & 0xffffe000u;
    normal = normal >= 0x47800000u ? 0x7f800000u : normal;
    const uint32_t nan = (a | 0x00400000u) & 0xffffe000u;
    const float small = (reduced_float(a) + 0.5f) - 0.5f;
    const uint32_t magnitude = a > 0x7f800000u ? nan : a >= 0x38800000u ? normal : reduced_bits(small);
    return reduced_float(sign | magnitude);
}

/* `sum + w * x` rounded once to half, for halves `sum`, `w` and `x` (held as floats): FMLA's
 * fused multiply-add. The product of two halves is exact in float32 and the float32 sum rounds
 * at most once, but rounding that to half could round twice (the float32 sum can land on a
 * half midpoint the exact sum is not on). So where the float32 sum was inexact (TwoSum's error)
 * it is taken rounded to odd instead: of the two float32 values around the exact sum, the one
 * with an odd last bit. Half values and midpoints have at most 12 significant bits, so their
 * float32 last bit is even: the odd one lies strictly on the exact sum's side of each of them,
 * and rounding it to half gives the exact sum's rounding. */
static inline float fused_half(float sum, float w, float x) {
    const float product = w * x, rounded = sum + product;
    const float back = rounded - sum, error = (sum - (rounded - back)) + (product - back);
    const uint32_t u = reduced_bits(rounded), e = reduced_bits(error);
    const int inexact = (e & 0x7fffffffu) != 0 && (e & 0x7f800000u) != 0x7f800000u;
    /* Even and inexact: one step toward the exact sum, up or down in magnitude. */
    const uint32_t step = !inexact || (u & 1u) ? 0u : ((e ^ u) >> 31) ? 0xffffffffu : 1u;
    return half_value(u + step);
}

static inline float low_half(uint32_t pair) { return widened(pair & 0xffffu); }
static inline float high_half(uint32_t pair) { return widened(pair >> 16); }

/* Columns of a row per pass: the half sums of that many outputs live on the stack. */
enum { SPAN = 256 };

static void gemm_portable(const uint32_t *weights, long m, long pairs, const uint32_t *packed, long columns,
                          float *c, long ldc) {
    float halves[SPAN];
    for (long i = 0; i < m; i++) {
        for (long first = 0; first < columns; first += SPAN) {
            const long count = columns - first < SPAN ? columns - first : SPAN;
            float *sums = c + i * ldc + first;
            for (long j = 0; j < count; j++) sums[j] = 0;
            for (long block = 0; block < pairs; block += SWIFTDARKNET_FP16_HALF_SUM_PAIRS) {
                const long end = block + SWIFTDARKNET_FP16_HALF_SUM_PAIRS < pairs ? block + SWIFTDARKNET_FP16_HALF_SUM_PAIRS : pairs;
                for (long j = 0; j < count; j++) halves[j] = 0;
                for (long p = block; p < end; p++) {
                    const uint32_t weight = weights[i * pairs + p], *x = packed + p * columns + first;
                    const float low = low_half(weight), high = high_half(weight);
                    for (long j = 0; j < count; j++)
                        halves[j] = fused_half(fused_half(halves[j], low, low_half(x[j])), high, high_half(x[j]));
                }
                for (long j = 0; j < count; j++) sums[j] += halves[j];
            }
        }
    }
}

const swiftdarknet_bf16_kernels swiftdarknet_fp16_kernels_portable_half_sums = {
    .name = "portable-fmla-fp16",
    .architecture = SWIFTDARKNET_ARCH_OTHER,
    .required_extensions = 0,
    .format = SWIFTDARKNET_REDUCED_FP16,
    .reference = SWIFTDARKNET_FP16_PORTABLE_HALF_SUMS,
    .pack = pack_portable,
    .gemm = gemm_portable,
    .pack_weights = swiftdarknet_fp16_pack_weights,
};
