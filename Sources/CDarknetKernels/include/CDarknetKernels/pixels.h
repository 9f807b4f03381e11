#ifndef SWIFTDARKNET_PIXELS_H
#define SWIFTDARKNET_PIXELS_H
/*
 * Camera and decoder pixel formats to the network's RGB. The `_fn` type is an entry of a vector
 * kernel set (kernel_sets.h).
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* BT.601 YUV to 8-bit RGB for `count` pixels of one row, with FFmpeg swscale's integer arithmetic
 * (see YUVToRGB.swift): `luma` is the row's first pixel, `cb`/`cr` the chroma sample covering it,
 * chroma samples `chroma_step` bytes apart (1 for I420, 2 for NV12); `odd` is 1 when the row
 * starts on an odd frame column. `coefficients`: luma scale, luma offset (x8), red from V, blue
 * from U, green from U, green from V (1.13 fixed point). `scratch` holds 2 * count values. Writes
 * the planar rows `red`, `green`, `blue`. */
typedef void swiftdarknet_yuv_to_rgb_fn(const uint8_t *luma, const uint8_t *cb, const uint8_t *cr,
                                        ptrdiff_t chroma_step, int odd, ptrdiff_t count,
                                        const int16_t *coefficients, int16_t *scratch, uint8_t *red, uint8_t *green,
                                        uint8_t *blue);

#ifdef __cplusplus
}
#endif
#endif
