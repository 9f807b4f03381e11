/*
 * Entries of the vector kernel sets that do not depend on the vector width, written once in
 * portable C: a set takes these unless its target has its own (VectorKernelsTemplate.h).
 */
#ifndef SWIFTDARKNET_PORTABLE_ENTRIES_H
#define SWIFTDARKNET_PORTABLE_ENTRIES_H
#include "CDarknetKernels/integer.h"

/* swiftdarknet_quantize_u8_fn in plain C (generic/Int8Quantize.c). */
void swiftdarknet_quantize_u8_portable(const float *x, ptrdiff_t count, float scale, int32_t zero_point,
                                      uint8_t *out);

/* swiftdarknet_int16_direct_layout_fn in plain C (generic/Int16Layout.c). */
void swiftdarknet_int16_direct_layout_portable(const float *input, ptrdiff_t channels, ptrdiff_t height,
                                               ptrdiff_t width, ptrdiff_t padding, ptrdiff_t stride,
                                               float inverse_scale, int32_t limit, uint8_t *layout,
                                               ptrdiff_t pair_begin, ptrdiff_t pair_end);
#endif
