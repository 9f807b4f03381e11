#ifndef SWIFTDARKNET_KERNELS_H
#define SWIFTDARKNET_KERNELS_H
/*
 * SIMD kernels the Swift compiler cannot produce on its own.
 *
 * Swift on Linux targets the x86-64 baseline (SSE2, no FMA) and offers no per-function target
 * attribute, so these few hot loops are written in C with clang vector extensions and compiled
 * three times: baseline (4 lanes), AVX2+FMA (8 lanes) and AVX-512 (16 lanes). The variant is
 * chosen once from the CPU's feature bits; every variant computes the same sums in the same order
 * per output element, so results do not depend on the CPU beyond FMA rounding.
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Instruction-set level the kernels run at: 0 baseline, 1 AVX2+FMA, 2 AVX-512F. */
int swiftdarknet_simd_level(void);

/* Runs the kernels at most at `maximum` (and at most what the CPU supports) from now on; returns
 * the level in effect. For tests that check every variant on one machine. */
int swiftdarknet_limit_simd_level(int maximum);

/* What the direct convolution applies after adding the bias. */
enum {
    SWIFTDARKNET_EPILOGUE_BIAS = 0,       /* bias only (linear, or an activation applied later) */
    SWIFTDARKNET_EPILOGUE_BIAS_LEAKY = 1, /* bias, then Darknet's leaky ReLU (slope 0.1) */
    SWIFTDARKNET_EPILOGUE_BIAS_RELU = 2   /* bias, then ReLU */
};

/* Backs every page of fresh memory [start, start + bytes) in one call (Linux 5.14+
 * MADV_POPULATE_WRITE; a no-op where unsupported), instead of one trap per 4 KiB when it is
 * first written: the weights laid out at load. Plain pages on purpose: on a VM that hands free
 * memory back to its host, fresh 2 MiB pages often come from memory the host must back again,
 * which made loads 2x slower and far less predictable than the few percent huge pages save in
 * the forward pass. Returns 0 on success. */
int swiftdarknet_prefault_write(void *start, ptrdiff_t bytes);

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
void swiftdarknet_convolve_direct(const float *padded, ptrdiff_t channels, ptrdiff_t padded_height,
                                  ptrdiff_t padded_width, const float *weights, const float *biases,
                                  ptrdiff_t filters, ptrdiff_t size, float *output, ptrdiff_t out_height,
                                  ptrdiff_t out_width, ptrdiff_t row_begin, ptrdiff_t row_end, int epilogue);

/* Largest kernel (size x size) the direct convolutions take. */
#define SWIFTDARKNET_DIRECT_MAX_SIZE 7

/* swiftdarknet_convolve_direct followed by Darknet's 2x2/2 max pooling, without the convolution's
 * output ever reaching memory: pooled rows [pooled_begin, pooled_end) of the pooled output
 * (filters x out_height / 2 x out_width / 2) from convolution rows 2 * row and 2 * row + 1.
 * out_height and out_width are even; the epilogue is applied before pooling (it is monotonic),
 * so every value equals the unfused pair's. */
void swiftdarknet_convolve_direct_maxpool2(const float *padded, ptrdiff_t channels, ptrdiff_t padded_height,
                                           ptrdiff_t padded_width, const float *weights, const float *biases,
                                           ptrdiff_t filters, ptrdiff_t size, float *pooled, ptrdiff_t out_height,
                                           ptrdiff_t out_width, ptrdiff_t pooled_begin, ptrdiff_t pooled_end,
                                           int epilogue);

/* Floats in each half (even columns, then odd ones) of a row of the stride-2 direct convolution's
 * band: the window span of an output `out_width` wide, rounded up to whole vectors. */
static inline ptrdiff_t swiftdarknet_stride2_half_width(ptrdiff_t out_width, ptrdiff_t size) {
    return (out_width + 15) / 16 * 16 + size / 2;
}

/* Floats of one thread's band buffer for swiftdarknet_convolve_stride2: the input rows of
 * `band_rows` output rows for every channel, split into even and odd columns. */
static inline ptrdiff_t swiftdarknet_stride2_band_floats(ptrdiff_t channels, ptrdiff_t out_width, ptrdiff_t size,
                                                         ptrdiff_t band_rows) {
    return channels * (2 * (band_rows - 1) + size) * 2 * swiftdarknet_stride2_half_width(out_width, size);
}

/* Stride-2 convolution (zero padding `pad`, no dilation, one group) of a CHW input, output rows
 * [row_begin, row_end), every filter, `band_rows` output rows at a time: their input rows are
 * split into even and odd columns in `band` (swiftdarknet_stride2_band_floats), so the window
 * of a vector of outputs is a run of adjacent values, as at stride 1. Weights, output, sum order
 * and epilogue as swiftdarknet_convolve_direct; size at most SWIFTDARKNET_DIRECT_MAX_SIZE. */
void swiftdarknet_convolve_stride2(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                   ptrdiff_t pad, const float *weights, const float *biases, ptrdiff_t filters,
                                   ptrdiff_t size, float *output, ptrdiff_t out_height, ptrdiff_t out_width,
                                   ptrdiff_t row_begin, ptrdiff_t row_end, ptrdiff_t band_rows, float *band,
                                   int epilogue);

/* Darknet's 2x2 max pooling with no offset, stride 1 or 2 (YOLOv3-tiny's pools); a window cell
 * past the right or bottom edge repeats the inside one. */
void swiftdarknet_maxpool2x2(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                             ptrdiff_t stride, float *output, ptrdiff_t out_height, ptrdiff_t out_width);

/* Winograd F(4x4, 3x3) input transform `Bᵀ d B` of channels [first, first + count): every 6x6 tile
 * (zero padding of 1 around the input) of tile rows [first_row, first_row + tile_rows) to
 * `transformed`, laid out [36][channels][tiles] with those tiles row-major over the output.
 * `scratch` holds width + 6 * (4 * tile_columns + 2) floats, and 28 * tile_columns for the
 * output transform. */
void swiftdarknet_winograd_input(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                 ptrdiff_t first_row, ptrdiff_t tile_rows, ptrdiff_t tile_columns,
                                 float *transformed, float *scratch, ptrdiff_t first, ptrdiff_t count);

/* Winograd output transform `Aᵀ m A` of filters [first, first + count) from `products`
 * ([36][filters][tiles]), clipped at the edges, plus the bias and the epilogue's activation. */
void swiftdarknet_winograd_output(const float *products, ptrdiff_t filters, ptrdiff_t height, ptrdiff_t width,
                                  ptrdiff_t tile_rows, ptrdiff_t tile_columns, const float *biases, int epilogue,
                                  float *output, float *scratch, ptrdiff_t first, ptrdiff_t count);

/* Activations the element-wise kernels compute (others stay in Swift). */
enum {
    SWIFTDARKNET_ACTIVATION_LINEAR = 0,
    SWIFTDARKNET_ACTIVATION_LEAKY = 1,   /* x > 0 ? x : 0.1x */
    SWIFTDARKNET_ACTIVATION_RELU = 2,    /* x > 0 ? x : 0 */
    SWIFTDARKNET_ACTIVATION_LOGISTIC = 3 /* 1 / (1 + e^-x), e^x by polynomial (about 2 ulp) */
};

/* Applies activation `kind` to `count` values in place. */
void swiftdarknet_activate(float *data, ptrdiff_t count, int kind);

/* Adds biases[c] to every value of channel c of a `channels x plane` tensor, then activation `kind`. */
void swiftdarknet_bias_activate(float *data, const float *biases, ptrdiff_t channels, ptrdiff_t plane, int kind);

/* output = alpha * previous + beta * from (output may alias either input). */
void swiftdarknet_weighted_sum(const float *previous, const float *from, ptrdiff_t count, float alpha, float beta,
                               float *output);

/* destination[i] = source[2 * i] for i < count (a stride-2 im2col row); reads no further than
 * source[2 * (count - 1)]. */
void swiftdarknet_copy_even(const float *source, float *destination, ptrdiff_t count);

/* Filters rounded up to whole vectors of the widest variant, for the tile-major layout. */
static inline ptrdiff_t swiftdarknet_winograd_padded_filters(ptrdiff_t filters) { return (filters + 15) / 16 * 16; }

/* `G g Gᵀ` of every 3x3 kernel (filters x channels x 3 x 3) in blocks [first_block, first_block +
 * block_count), each filter's kernels times filter_scales[filter] when `filter_scales` is not NULL
 * (batch norm folded in on the way, the transform being linear), into `u`: filter-major
 * [36][filters][channels] for the GEMM path, or channel-major in blocks of 16 filters
 * [36][padded filters / 16][channels][16] (zero past the last filter) for the tile-major path.
 * `g` points at the first kernel of block `first_block` (a block is 16 kernels, or 16 filters when
 * channel-major; the kernels of a run of blocks are contiguous), so a caller can read the weights
 * a run of blocks at a time. Returns the largest magnitude among the scaled weights (NaN or
 * infinity if any is one): a caller reading weights straight from a file checks them in this one
 * pass. */
float swiftdarknet_winograd_weights(const float *g, const float *filter_scales, ptrdiff_t filters, ptrdiff_t channels,
                                    int channel_major, float *u, ptrdiff_t first_block, ptrdiff_t block_count);

/* Blocks of 16 kernels (filter-major) or 16 filters (channel-major) swiftdarknet_winograd_weights
 * splits its work into; disjoint block ranges can run on different threads. */
ptrdiff_t swiftdarknet_winograd_weight_blocks(ptrdiff_t filters, ptrdiff_t channels, int channel_major);

/* A 1x1 stride-1 convolution of CHW `input` (`channels` planes of `plane` floats) for positions
 * [first, first + count): the positions copied in blocks of 16 to `packed` (channels * count
 * rounded up to 16 floats), the tile-major products (as swiftdarknet_winograd_products_tile_major,
 * with positions for filters and filters for tiles) to `products` (filters * count rounded up to
 * 16 floats), then stored to `output`'s `filters` planes with `biases` added and `activation` (a
 * SWIFTDARKNET_ACTIVATION_* code) applied as swiftdarknet_bias_activate does, or as they are
 * when `biases` is NULL. `weights` transposed: weights[c * filters + f]. Each output is summed
 * over the channels in order, whatever the range: results do not depend on how positions are
 * split. */
void swiftdarknet_pointwise(const float *weights, const float *input, ptrdiff_t channels, ptrdiff_t filters,
                            ptrdiff_t plane, ptrdiff_t first, ptrdiff_t count, const float *biases, int activation,
                            float *packed, float *products, float *output);

/* Products for outputs with few tiles, elements [first, first + count):
 * products[e][tile][f] = sum_c v[e][c][tile] u[e][c][f], with u channel-major (see above) and v
 * the input transform ([elements][channels][tiles]; 36 elements for F(4x4, 3x3), 16 for F(2x2, 3x3)). A block of tiles x filters stays in registers over
 * all channels, so each transformed weight is read about once. */
void swiftdarknet_winograd_products_tile_major(const float *u, const float *v, float *products, ptrdiff_t channels,
                                               ptrdiff_t filters_padded, ptrdiff_t tiles, ptrdiff_t first,
                                               ptrdiff_t count);

/* The output transform (as swiftdarknet_winograd_output) of tile-major products [36][tiles][padded filters]
 * of tile rows [first_row, first_row + tile_rows). */
void swiftdarknet_winograd_output_tile_major(const float *products, ptrdiff_t filters_padded, ptrdiff_t height,
                                             ptrdiff_t width, ptrdiff_t first_row, ptrdiff_t tile_rows,
                                             ptrdiff_t tile_columns,
                                             const float *biases, int epilogue, float *output, ptrdiff_t first,
                                             ptrdiff_t count);

/* Winograd F(2x2, 3x3), tile-major only: for small outputs whose F(4x4, 3x3) weights would be too
 * large to stream each pass (9 -> 16 values per kernel instead of 36). Input transform of channels
 * [first, first + count): every 4x4 tile (zero padding of 1) of tile rows [first_row, first_row +
 * tile_rows) to `transformed`, [16][channels][tiles], those tiles row-major over the output (2x2
 * each). `scratch` holds width + 8 * (tile_columns + 1) floats. */
void swiftdarknet_winograd_f23_input(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                     ptrdiff_t first_row, ptrdiff_t tile_rows, ptrdiff_t tile_columns,
                                     float *transformed, float *scratch, ptrdiff_t first, ptrdiff_t count);

/* Output transform `Aᵀ m A` of filters [first, first + count) from tile-major products
 * [16][tiles][padded filters] of tile rows [first_row, first_row + tile_rows), clipped at the edges,
 * plus the bias and the epilogue's activation. */
void swiftdarknet_winograd_f23_output_tile_major(const float *products, ptrdiff_t filters_padded, ptrdiff_t height,
                                                 ptrdiff_t width, ptrdiff_t first_row, ptrdiff_t tile_rows,
                                                 ptrdiff_t tile_columns,
                                                 const float *biases, int epilogue, float *output, ptrdiff_t first,
                                                 ptrdiff_t count);

/* `G g Gᵀ` of every 3x3 kernel (times filter_scales as above) into F(2x2, 3x3)'s 16 elements, channel-major in blocks of 16 filters
 * [16][padded filters / 16][channels][16] (zero past the last filter); blocks as
 * swiftdarknet_winograd_weight_blocks(filters, channels, 1), `g` pointing at block `first_block`. Returns
 * the largest magnitude among the scaled weights, as swiftdarknet_winograd_weights. */
float swiftdarknet_winograd_f23_weights(const float *g, const float *filter_scales, ptrdiff_t filters,
                                        ptrdiff_t channels, float *u, ptrdiff_t first_block, ptrdiff_t block_count);

/* Helper threads for the forward pass's splits (WorkerPool.c). Between jobs each helper spins
 * for about a millisecond before it blocks, so the steps of a forward pass hand work over without
 * waking a sleeping thread (on a virtual machine, an idle virtual CPU can take long to wake).
 * One thread at a time may run jobs on a pool. */
typedef struct swiftdarknet_pool swiftdarknet_pool;
typedef void (*swiftdarknet_task)(void *context, ptrdiff_t worker);

/* A pool with `helpers` threads besides the caller's (fewer if threads cannot be created); NULL
 * if out of memory. */
swiftdarknet_pool *swiftdarknet_pool_create(ptrdiff_t helpers);
/* Helper threads the pool has. */
ptrdiff_t swiftdarknet_pool_helpers(const swiftdarknet_pool *pool);
/* Runs task(context, w) for w in [0, count) and returns when all are done: w = 0 on the calling
 * thread, w = 1 ... helpers on the helpers, any further ones on the calling thread. */
void swiftdarknet_pool_run(swiftdarknet_pool *pool, ptrdiff_t count, swiftdarknet_task task, void *context);

typedef void (*swiftdarknet_range_task)(void *context, ptrdiff_t begin, ptrdiff_t end, ptrdiff_t worker);

/* How workers take their pieces of a swiftdarknet_pool_run_ranges job. */
typedef enum {
    /* Three quarters of their own share first, then half of what is left at a time: two or
     * three pieces per worker when the workers keep pace. */
    SWIFTDARKNET_PIECES_HALVING = 0,
    /* One unit at a time, both from their own share and from others': for tests, which need
     * every item computed in a piece of its own boundaries. */
    SWIFTDARKNET_PIECES_FINEST = 1,
} swiftdarknet_pieces;

/* Runs task(context, begin, end, w) over pieces that together cover [0, count) once, and returns
 * when all are done. [0, count) is cut into `units` near-equal runs (unit u starts at
 * count * u / units; units <= count, < 2^32); pieces are whole runs of units. Each of the
 * `workers` workers (at most helpers + 1; worker 0 is the calling thread) starts on its own
 * contiguous share of the units, front to back; a worker whose share is done takes half of what
 * is left of another's from the back. A slower core so ends with less work instead of holding
 * up the job. */
void swiftdarknet_pool_run_ranges(swiftdarknet_pool *pool, ptrdiff_t count, ptrdiff_t units, ptrdiff_t workers,
                                  swiftdarknet_pieces pieces, swiftdarknet_range_task task, void *context);
/* Stops and joins the helpers, then frees the pool (NULL is ignored). */
void swiftdarknet_pool_destroy(swiftdarknet_pool *pool);

/* BT.601 YUV to 8-bit RGB for `count` pixels of one row, with FFmpeg swscale's integer arithmetic
 * (see YUVToRGB.swift): `luma` is the row's first pixel, `cb`/`cr` the chroma sample covering it,
 * chroma samples `chroma_step` bytes apart (1 for I420, 2 for NV12); `odd` is 1 when the row
 * starts on an odd frame column. `coefficients`: luma scale, luma offset (x8), red from V, blue
 * from U, green from U, green from V (1.13 fixed point). `scratch` holds 2 * count values. Writes
 * the planar rows `red`, `green`, `blue`. */
void swiftdarknet_yuv_to_rgb(const uint8_t *luma, const uint8_t *cb, const uint8_t *cr, ptrdiff_t chroma_step, int odd,
                             ptrdiff_t count, const int16_t *coefficients, int16_t *scratch, uint8_t *red,
                             uint8_t *green, uint8_t *blue);

#ifdef __cplusplus
}
#endif
#endif
