/*
 * support/Primitives.h's operations on arm64, with Advanced SIMD (every arm64 CPU has it).
 */
#include <arm_neon.h>
#include <stdint.h>

#define KEEP_IN_REGISTER(v) __asm__ volatile("" : "+w"(v))
#define SPIN_PAUSE() __asm__ __volatile__("yield")

/* Four-way zip: st4 stores the four rows' bytes interleaved. */
static inline void int8_interleave16(const uint8_t *r0, const uint8_t *r1, const uint8_t *r2, const uint8_t *r3,
                                     uint8_t *out) {
    const uint8x16x4_t rows = {{vld1q_u8(r0), vld1q_u8(r1), vld1q_u8(r2), vld1q_u8(r3)}};
    vst4q_u8(out, rows);
}

/* ld2 splits even and odd bytes. */
static inline void int8_even_bytes16(const uint8_t *source, uint8_t *out) {
    vst1q_u8(out, vld2q_u8(source).val[0]);
}
