#ifndef SWIFTDARKNET_ELEMENTWISE_H
#define SWIFTDARKNET_ELEMENTWISE_H
/*
 * Element-wise passes and pooling: activations, bias + activation, weighted sums, strided
 * copies and Darknet's 2x2 max pool. The `_fn` types are entries of a vector kernel set
 * (kernel_sets.h).
 */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Activations the element-wise kernels compute (others stay in Swift). */
enum {
    SWIFTDARKNET_ACTIVATION_LINEAR = 0,
    SWIFTDARKNET_ACTIVATION_LEAKY = 1,   /* x > 0 ? x : 0.1x */
    SWIFTDARKNET_ACTIVATION_RELU = 2,    /* x > 0 ? x : 0 */
    SWIFTDARKNET_ACTIVATION_LOGISTIC = 3 /* 1 / (1 + e^-x), e^x by polynomial (about 2 ulp) */
};

/* Applies activation `kind` to `count` values in place. */
typedef void swiftdarknet_activate_fn(float *data, ptrdiff_t count, int kind);

/* Adds biases[c] to every value of channel c of a `channels x plane` tensor, then activation `kind`. */
typedef void swiftdarknet_bias_activate_fn(float *data, const float *biases, ptrdiff_t channels, ptrdiff_t plane,
                                           int kind);

/* output = alpha * previous + beta * from (output may alias either input). */
typedef void swiftdarknet_weighted_sum_fn(const float *previous, const float *from, ptrdiff_t count, float alpha,
                                          float beta, float *output);

/* destination[i] = source[2 * i] for i < count (a stride-2 im2col row); reads no further than
 * source[2 * (count - 1)]. */
typedef void swiftdarknet_copy_even_fn(const float *source, float *destination, ptrdiff_t count);

/* Darknet's 2x2 max pooling with no offset, stride 1 or 2 (YOLOv3-tiny's pools); a window cell
 * past the right or bottom edge repeats the inside one. */
typedef void swiftdarknet_maxpool2x2_fn(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                        ptrdiff_t stride, float *output, ptrdiff_t out_height, ptrdiff_t out_width);

#ifdef __cplusplus
}
#endif
#endif
