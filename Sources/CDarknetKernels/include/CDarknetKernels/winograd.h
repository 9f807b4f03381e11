#ifndef SWIFTDARKNET_WINOGRAD_H
#define SWIFTDARKNET_WINOGRAD_H
/*
 * Winograd convolution of 3x3 stride-1 "same" layers: F(4x4, 3x3) (6x6 tiles, 36 elements),
 * F(3x3, 3x3) (5x5 tiles, 25 elements; points ±1/2, ±3/2 and infinity: bfloat16's products
 * only) and F(2x2, 3x3) (4x4 tiles, 16 elements). The `_fn` types are entries of a vector kernel
 * set (kernel_sets.h).
 */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Filters rounded up to whole vectors of the widest kernel set, for the tile-major layout. */
static inline ptrdiff_t swiftdarknet_winograd_padded_filters(ptrdiff_t filters) { return (filters + 15) / 16 * 16; }

/* Blocks of 16 kernels (filter-major) or 16 filters (channel-major) the weight transform
 * splits its work into; disjoint block ranges can run on different threads. */
static inline ptrdiff_t swiftdarknet_winograd_weight_blocks(ptrdiff_t filters, ptrdiff_t channels,
                                                            int channel_major) {
    return channel_major ? swiftdarknet_winograd_padded_filters(filters) / 16 : (filters * channels + 15) / 16;
}

/* The input transform `Bᵀ d B` of channels [first, first + count): every `tile` x `tile` input
 * tile (6: F(4x4, 3x3), 36 elements; 5: F(3x3, 3x3), 25; 4: F(2x2, 3x3), 16), with zero
 * padding of 1 around the input, of tile rows [first_row, first_row + tile_rows) to
 * `transformed`, laid out [elements][channels][tiles] with those tiles row-major over the output
 * (4x4, 3x3 or 2x2 outputs each). `scratch` holds width + tile * ((tile - 2) * tile_columns + 2) floats, and for
 * F(4x4, 3x3) 28 * tile_columns for the output transform. */
typedef void swiftdarknet_winograd_input_fn(const float *input, ptrdiff_t channels, ptrdiff_t height,
                                            ptrdiff_t width, ptrdiff_t first_row, ptrdiff_t tile_rows,
                                            ptrdiff_t tile_columns, int tile, float *transformed, float *scratch,
                                            ptrdiff_t first, ptrdiff_t count);

/* F(4x4, 3x3) output transform `Aᵀ m A` of filters [first, first + count) from `products`
 * ([36][filters][tiles]), clipped at the edges, plus the bias and the epilogue's activation
 * (a SWIFTDARKNET_EPILOGUE_* code). */
typedef void swiftdarknet_winograd_output_fn(const float *products, ptrdiff_t filters, ptrdiff_t height,
                                             ptrdiff_t width, ptrdiff_t tile_rows, ptrdiff_t tile_columns,
                                             const float *biases, int epilogue, float *output, float *scratch,
                                             ptrdiff_t first, ptrdiff_t count);

/* Products for outputs with few tiles, elements [first, first + count):
 * products[e][tile][f] = sum_c v[e][c][tile] u[e][c][f], with u channel-major (see the weight
 * transform) and v the input transform ([elements][channels][tiles]; 36 elements for F(4x4,
 * 3x3), 16 for F(2x2, 3x3)). A block of tiles x filters stays in registers over all channels,
 * so each transformed weight is read about once. */
typedef void swiftdarknet_winograd_products_tile_major_fn(const float *u, const float *v, float *products,
                                                          ptrdiff_t channels, ptrdiff_t filters_padded,
                                                          ptrdiff_t tiles, ptrdiff_t first, ptrdiff_t count);

/* The output transform of tile-major products [elements][tiles][padded filters] of tile rows
 * [first_row, first_row + tile_rows): `tile` 6 for F(4x4, 3x3) (36 elements), 5 for F(3x3, 3x3)
 * (25) or 4 for F(2x2, 3x3) (16), clipped at the edges, plus the bias and the epilogue's
 * activation, then, when `residual` is not NULL, its value at the same place (a fused shortcut's source, laid out as `output`). */
typedef void swiftdarknet_winograd_output_tile_major_fn(const float *products, ptrdiff_t filters_padded,
                                                        ptrdiff_t height, ptrdiff_t width, ptrdiff_t first_row,
                                                        ptrdiff_t tile_rows, ptrdiff_t tile_columns, int tile,
                                                        const float *biases, int epilogue, float *output,
                                                        const float *residual, ptrdiff_t first, ptrdiff_t count);

/* `G g Gᵀ` of every 3x3 kernel (filters x channels x 3 x 3) in blocks [first_block, first_block +
 * block_count), each filter's kernels times filter_scales[filter] when `filter_scales` is not NULL
 * (batch norm folded in on the way, the transform being linear), into `u`. `tile` is 6 for
 * F(4x4, 3x3) (36 elements), 5 for F(3x3, 3x3) (25), 4 for F(2x2, 3x3) (16). Filter-major
 * [elements][filters][channels] for the GEMM path, or channel-major in blocks of 16 filters
 * [elements][padded filters / 16][channels][16] (zero past the last filter) for the tile-major
 * path. `g` points at the first kernel of block `first_block` (a block is 16 kernels, or 16
 * filters when channel-major; the kernels of a run of blocks are contiguous), so a caller can
 * read the weights a run of blocks at a time. Returns the largest magnitude among the scaled
 * weights (NaN or infinity if any is one): a caller reading weights straight from a file checks
 * them in this one pass. */
typedef float swiftdarknet_winograd_weights_fn(const float *g, const float *filter_scales, ptrdiff_t filters,
                                               ptrdiff_t channels, int tile, int channel_major, float *u,
                                               ptrdiff_t first_block, ptrdiff_t block_count);

#ifdef __cplusplus
}
#endif
#endif
