/*
 * Float to 8-bit (and 16-bit) codes shared by the quantizers and the GEMM's u8 epilogue, so all
 * give the same code for the same float, in scalar code and on 16 AVX-512 lanes alike
 * (x86/RoundAVX512.h). rint in
 * the default rounding mode (half to even) by adding and subtracting 1.5 * 2^23 (exact for
 * |v| < 2^22; v is clamped first, to +-1024 for 8-bit codes, which changes no code), so it
 * vectorises with SSE2 alone instead of calling rintf per value.
 */
#ifndef SWIFTDARKNET_INTEGER_ROUND_H
#define SWIFTDARKNET_INTEGER_ROUND_H
#include <stdint.h>

/* rint of v clamped to +-bound (bound < 2^22), NaN -> 0. */
static inline __attribute__((always_inline)) float int8_round_within(float v, float bound) {
    const float magic = 12582912.0f; /* 1.5 * 2^23 */
    v = v == v ? v : 0.0f;           /* NaN -> 0 */
    v = v < -bound ? -bound : (v > bound ? bound : v);
    return (v + magic) - magic;
}

static inline __attribute__((always_inline)) float int8_round(float v) { return int8_round_within(v, 1024.0f); }

/* clamp(rint(v) + zero, 0, 255): the u8 code of v = x * (1 / scale). */
static inline __attribute__((always_inline)) uint8_t int8_u8_code(float v, float zero) {
    float q = int8_round(v) + zero;
    q = q < 0.0f ? 0.0f : (q > 255.0f ? 255.0f : q);
    return (uint8_t)(int32_t)q;
}

/* clamp(rint(v), -128, 127). */
static inline __attribute__((always_inline)) int8_t int8_s8_code(float v) {
    float q = int8_round(v);
    q = q < -128.0f ? -128.0f : (q > 127.0f ? 127.0f : q);
    return (int8_t)(int32_t)q;
}
#endif
