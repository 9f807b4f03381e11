/*
 * The few operations whose best form depends on the architecture, with plain C for any other:
 * x86/Primitives.h and arm/Primitives.h define them for their architecture, and this header
 * takes the one that applies: the one seam through which generic/ code (written once for all
 * architectures, and including nothing from x86/ or arm/) gets them.
 */
#ifndef SWIFTDARKNET_PRIMITIVES_H
#define SWIFTDARKNET_PRIMITIVES_H
#include <stdint.h>

#if defined(__x86_64__)
#include "../x86/Primitives.h"
#elif defined(__aarch64__)
#include "../arm/Primitives.h"
#else
/* Materialises vector `v` in a register here, so the compiler cannot move the load that made it
 * earlier and keep two such values live at once. */
#define KEEP_IN_REGISTER(v) ((void)0)
/* One step of a spin-wait loop. */
#define SPIN_PAUSE() ((void)0)

/* 16 bytes from each of 4 rows into 64 bytes, byte t of column j at out[4 * j + t]. */
static inline void int8_interleave16(const uint8_t *r0, const uint8_t *r1, const uint8_t *r2, const uint8_t *r3,
                                     uint8_t *out) {
    for (int j = 0; j < 16; j++) {
        out[4 * j] = r0[j];
        out[4 * j + 1] = r1[j];
        out[4 * j + 2] = r2[j];
        out[4 * j + 3] = r3[j];
    }
}

/* The 16 even bytes of source[0 ... 31]. */
static inline void int8_even_bytes16(const uint8_t *source, uint8_t *out) {
    for (int j = 0; j < 16; j++) out[j] = source[2 * j];
}
#endif

#endif
