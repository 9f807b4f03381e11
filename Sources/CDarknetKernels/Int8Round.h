/*
 * Float to 8-bit codes shared by the quantizers and the GEMM's u8 epilogue, so both give the
 * same code for the same float. rint in the default rounding mode (half to even) by adding and
 * subtracting 1.5 * 2^23 (exact for |v| < 2^22; v is clamped to +-1024 first, which changes no
 * code), so it vectorises with SSE2 alone instead of calling rintf per value.
 */
#ifndef SWIFTDARKNET_INT8_ROUND_H
#define SWIFTDARKNET_INT8_ROUND_H

static inline __attribute__((always_inline)) float int8_round(float v) {
    const float magic = 12582912.0f; /* 1.5 * 2^23 */
    v = v == v ? v : 0.0f;           /* NaN -> 0 */
    v = v < -1024.0f ? -1024.0f : (v > 1024.0f ? 1024.0f : v);
    return (v + magic) - magic;
}

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
