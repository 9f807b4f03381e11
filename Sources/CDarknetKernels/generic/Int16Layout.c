/*
 * The 16-bit direct convolution's layout, its size and the portable quantizing loop.
 */
#include "Int16Layout.h"
#include "PortableEntries.h"

ptrdiff_t swiftdarknet_int16_direct_layout_bytes(ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                                 ptrdiff_t padding, ptrdiff_t stride) {
    /* A pair of int16 channels takes the 4 bytes a quad of 8-bit ones does. */
    return swiftdarknet_int8_direct_layout_bytes(2 * channels, height, width, padding, stride);
}

void swiftdarknet_int16_direct_layout_portable(const float *input, ptrdiff_t channels, ptrdiff_t height,
                                               ptrdiff_t width, ptrdiff_t padding, ptrdiff_t stride,
                                               float inverse_scale, int32_t limit, uint8_t *layout,
                                               ptrdiff_t pair_begin, ptrdiff_t pair_end) {
    int16_direct_layout(input, channels, height, width, padding, stride, inverse_scale, limit, layout, pair_begin,
                        pair_end, int16_pixels_portable);
}
