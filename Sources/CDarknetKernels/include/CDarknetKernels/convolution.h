#ifndef SWIFTDARKNET_CONVOLUTION_H
#define SWIFTDARKNET_CONVOLUTION_H
/*
 * Float convolutions without im2col: the direct (sliding-window) kernels at stride 1 and 2, and
 * the 1x1 product kernel. The `_fn` types are the entries of a vector kernel set
 * (kernel_sets.h); every set computes the same sums in the same order per output element, so
 * results do not depend on the set beyond FMA rounding.
 */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the direct convolution applies after adding the bias. */
enum {
    SWIFTDARKNET_EPILOGUE_BIAS = 0,       /* bias only (linear, or an activation applied later) */
    SWIFTDARKNET_EPILOGUE_BIAS_LEAKY = 1, /* bias, then Darknet's leaky ReLU (slope 0.1) */
    SWIFTDARKNET_EPILOGUE_BIAS_RELU = 2   /* bias, then ReLU */
};

/* Largest kernel (size x size) the direct convolutions take. */
#define SWIFTDARKNET_DIRECT_MAX_SIZE 7

/* Columns of the padded input plane the direct convolution reads for an output `out_width` wide
 * with a `size`-wide kernel: the window span plus slack for the last partial vector. */
ptrdiff_t swiftdarknet_direct_padded_width(ptrdiff_t out_width, ptrdiff_t size);

/* Copies channels [first, first + count) of a CHW tensor into zero-padded planes of
 * `padded_height x padded_width`, the input placed at row `pad`, column `pad`. */
void swiftdarknet_pad_planes(const float *input, ptrdiff_t first, ptrdiff_t count, ptrdiff_t height,
                             ptrdiff_t width, ptrdiff_t pad, float *padded, ptrdiff_t padded_height,
                             ptrdiff_t padded_width);

/* Stride-1 convolution of zero-padded planes, output rows [row_begin, row_end), every filter.
 * weights: filters x channels x size x size; output: filters x out_height x out_width.
 * Each output is bias + the sum over channels, kernel rows and columns in that order; size at
 * most SWIFTDARKNET_DIRECT_MAX_SIZE. */
typedef void swiftdarknet_convolve_direct_fn(const float *padded, ptrdiff_t channels, ptrdiff_t padded_height,
                                             ptrdiff_t padded_width, const float *weights, const float *biases,
                                             ptrdiff_t filters, ptrdiff_t size, float *output, ptrdiff_t out_height,
                                             ptrdiff_t out_width, ptrdiff_t row_begin, ptrdiff_t row_end, int epilogue);

/* The direct convolution followed by Darknet's 2x2/2 max pooling, without the convolution's
 * output ever reaching memory: pooled rows [pooled_begin, pooled_end) of the pooled output
 * (filters x out_height / 2 x out_width / 2) from convolution rows 2 * row and 2 * row + 1.
 * out_height and out_width are even; the epilogue is applied before pooling (it is monotonic),
 * so every value equals the unfused pair's. */
typedef void swiftdarknet_convolve_direct_maxpool2_fn(const float *padded, ptrdiff_t channels,
                                                      ptrdiff_t padded_height, ptrdiff_t padded_width,
                                                      const float *weights, const float *biases, ptrdiff_t filters,
                                                      ptrdiff_t size, float *pooled, ptrdiff_t out_height,
                                                      ptrdiff_t out_width, ptrdiff_t pooled_begin,
                                                      ptrdiff_t pooled_end, int epilogue);

/* Floats in each half (even columns, then odd ones) of a row of the stride-2 direct convolution's
 * band: the window span of an output `out_width` wide, rounded up to whole vectors. */
static inline ptrdiff_t swiftdarknet_stride2_half_width(ptrdiff_t out_width, ptrdiff_t size) {
    return (out_width + 15) / 16 * 16 + size / 2;
}

/* Floats of one thread's band buffer for the stride-2 convolution: the input rows of
 * `band_rows` output rows for every channel, split into even and odd columns. */
static inline ptrdiff_t swiftdarknet_stride2_band_floats(ptrdiff_t channels, ptrdiff_t out_width, ptrdiff_t size,
                                                         ptrdiff_t band_rows) {
    return channels * (2 * (band_rows - 1) + size) * 2 * swiftdarknet_stride2_half_width(out_width, size);
}

/* Stride-2 convolution (zero padding `pad`, no dilation, one group) of a CHW input, output rows
 * [row_begin, row_end), every filter, `band_rows` output rows at a time: their input rows are
 * split into even and odd columns in `band` (swiftdarknet_stride2_band_floats), so the window
 * of a vector of outputs is a run of adjacent values, as at stride 1. Weights, output, sum order
 * and epilogue as the stride-1 kernel; size at most SWIFTDARKNET_DIRECT_MAX_SIZE. */
typedef void swiftdarknet_convolve_stride2_fn(const float *input, ptrdiff_t channels, ptrdiff_t height,
                                              ptrdiff_t width, ptrdiff_t pad, const float *weights,
                                              const float *biases, ptrdiff_t filters, ptrdiff_t size, float *output,
                                              ptrdiff_t out_height, ptrdiff_t out_width, ptrdiff_t row_begin,
                                              ptrdiff_t row_end, ptrdiff_t band_rows, float *band, int epilogue);

/* A 1x1 stride-1 convolution of CHW `input` (`channels` planes of `plane` floats) for positions
 * [first, first + count): the positions copied in blocks of 16 to `packed` (channels * count
 * rounded up to 16 floats), the tile-major products (as the Winograd tile-major product kernel,
 * with positions for filters and filters for tiles) to `products` (filters * count rounded up
 * to 16 floats), then stored to `output`'s `filters` planes with `biases` added and
 * `activation` (a SWIFTDARKNET_ACTIVATION_* code) applied as the bias-activate kernel does, or
 * as they are when `biases` is NULL. `weights` transposed: weights[c * filters + f]. Each output
 * is summed over the channels in order, whatever the range: results do not depend on how
 * positions are split. */
typedef void swiftdarknet_pointwise_fn(const float *weights, const float *input, ptrdiff_t channels,
                                       ptrdiff_t filters, ptrdiff_t plane, ptrdiff_t first, ptrdiff_t count,
                                       const float *biases, int activation, float *packed, float *products,
                                       float *output);

#ifdef __cplusplus
}
#endif
#endif
