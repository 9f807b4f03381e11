#ifndef SWIFTDARKNET_INTEGER_H
#define SWIFTDARKNET_INTEGER_H
/*
 * The int8 convolution core: quantization helpers, packing, an 8-bit im2col, and an int8 GEMM
 * with a fused requantizing epilogue, compiled once per instruction set. The GEMM and direct
 * convolutions (the `_fn` types) are the entries of an integer kernel set (kernel_sets.h), one
 * per variant below; the helpers without a variant are plain functions.
 *
 * Numbers. Weights A are signed int8, symmetric (zero point 0), one scale per output row
 * (filter): w = scale_a[m] * a. Activations B are UNSIGNED uint8 with one scale and zero point
 * per tensor (asymmetric): x = scale_b * (b - zero_b). This is the form vpdpbusd multiplies
 * (u8 x s8) with no shift; the zero point is undone in the epilogue by a per-row compensation,
 *     sum_k w[m,k] x[k,n] = scale_a[m] scale_b (acc[m,n] - zero_b * sum_k a[m,k]),
 * so callers pass compensation[m] = zero_b * row_sum(a)[m] (swiftdarknet_int8_row_sums) and
 * scale[m] = scale_a[m] * scale_b. A ReLU/leaky activation's output, mostly >= 0, loses only
 * a few codes to the negative side this way, where a symmetric s8 tensor would waste half.
 *
 * Accumulation is exact int32: |acc| <= 255 * 128 * K, so K is at most
 * SWIFTDARKNET_INT8_MAX_K. Every variant computes the same integers; the epilogue is the same
 * IEEE float arithmetic in every variant (contraction off, no FMA), and the logistic, mish and
 * swish activations call one libm-based scalar function, so float and u8 outputs are identical
 * across variants too.
 *
 * Layouts. Packed A: blocks of SWIFTDARKNET_INT8_ROW_BLOCK (8) rows; in a block, for every
 * quad of k (k = 4q .. 4q + 3) the 8 rows' 4 bytes: byte (m, k) at
 *     ((m / 8) * kq + k / 4) * 32 + (m % 8) * 4 + k % 4,      kq = ceil(K / 4),
 * rows beyond M and k beyond K zero. Packed B: strips of SWIFTDARKNET_INT8_STRIP (16) columns;
 * in a strip, for every quad of k the 16 columns' 4 bytes: byte (k, n) at
 *     ((n / 16) * kq + k / 4) * 64 + (n % 16) * 4 + k % 4,
 * k beyond K zero (so A's zero padding meets zeros), columns beyond N zero. A vpdpbusd then
 * takes 16 (zmm) or 8 (ymm) columns' 4 bytes from one load and one row's 4 weights broadcast.
 *
 * AVX2 without VNNI: vpmaddubsw adds two u8 x s8 products into a SATURATING int16 (255 * 128 *
 * 2 = 65280 > 32767). That variant splits every activation byte into its nibbles, b = 16 hi +
 * lo with hi, lo <= 15, so each vpmaddubsw sum is at most 2 * 15 * 128 = 3840 and never
 * saturates; vpmaddwd widens each to int32 (by 1 and by 16). Exact for every input, at twice the
 * instructions of a plain vpmaddubsw kernel. Weights within +-SWIFTDARKNET_INT8_NARROW_LIMIT
 * (7 bits) keep every pair under 2 * 255 * 63 = 32130: for them the AVX2_NARROW kernel runs the
 * plain vpmaddubsw + vpmaddwd kernel, exact too.
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rows of a packed-A block and columns of a packed-B strip. */
#define SWIFTDARKNET_INT8_ROW_BLOCK 8
#define SWIFTDARKNET_INT8_STRIP 16
/* Largest K whose worst-case sum (255 * 128 * K) fits an int32. */
#define SWIFTDARKNET_INT8_MAX_K 65536
/* Largest weight magnitude the AVX2_NARROW kernel multiplies exactly (the others: 128). */
#define SWIFTDARKNET_INT8_NARROW_LIMIT 63

/* The integer kernel sets: which instructions multiply (swiftdarknet_integer_kernel_set). */
enum {
    SWIFTDARKNET_INT8_PORTABLE = 0,     /* plain C */
    SWIFTDARKNET_INT8_AVX2 = 1,         /* ymm vpmaddubsw + vpmaddwd, nibble-split activations */
    SWIFTDARKNET_INT8_AVX_VNNI = 2,     /* ymm VEX vpdpbusd (AVX-VNNI) */
    SWIFTDARKNET_INT8_AVX512_VNNI = 3,  /* zmm vpdpbusd (AVX-512 VNNI + BW) */
    /* The AVX-VNNI kernel's source compiled for AVX-512 VNNI + VL (EVEX-encoded ymm vpdpbusd):
     * lets a CPU with AVX-512 VNNI but no AVX-VNNI run and test that kernel. Never chosen
     * automatically. */
    SWIFTDARKNET_INT8_AVX_VNNI_EVEX = 4,
    /* AVX2's kernel for weights within +-SWIFTDARKNET_INT8_NARROW_LIMIT: ymm vpmaddubsw + vpmaddwd
     * on whole activation bytes. Chosen by the caller for such weights. */
    SWIFTDARKNET_INT8_AVX2_NARROW = 5,
    /* arm64: Advanced SIMD without dot products, operands widened to int16 and multiplied by smlal. */
    SWIFTDARKNET_INT8_NEON = 6,
    /* arm64 SDOT by element (FEAT_DotProd) on activations flipped to x - 128, corrected by 128 *
     * the row's weight sum. */
    SWIFTDARKNET_INT8_DOTPROD = 7,
    /* arm64 USDOT by element (FEAT_I8MM): u8 x s8, as vpdpbusd. */
    SWIFTDARKNET_INT8_I8MM = 8,
    SWIFTDARKNET_INT8_VARIANTS = 9
};

/* Activations the epilogue applies (the first four share SWIFTDARKNET_ACTIVATION_*'s codes). */
enum {
    SWIFTDARKNET_INT8_LINEAR = 0,
    SWIFTDARKNET_INT8_LEAKY = 1,     /* y > 0 ? y : 0.1f * y, Darknet's */
    SWIFTDARKNET_INT8_RELU = 2,      /* y > 0 ? y : 0 */
    SWIFTDARKNET_INT8_LOGISTIC = 3,  /* 1 / (1 + expf(-y)) */
    SWIFTDARKNET_INT8_MISH = 4,      /* y * tanh(softplus(y)), softplus thresholded at 20 as Darknet's */
    SWIFTDARKNET_INT8_SWISH = 5      /* y / (1 + expf(-y)) */
};

/* The fused epilogue of one GEMM: y = (float)(acc - compensation[m]) * scale[m] + bias[m]
 * (bias NULL: 0), then `activation`. The u8 output then stores clamp(rint(y * (1 /
 * output_scale)) + output_zero_point, 0, 255), exactly what swiftdarknet_quantize_u8 stores
 * for y. */
typedef struct {
    const int32_t *compensation; /* M values (NULL: 0) */
    const float *scale;          /* M values */
    const float *bias;           /* M values, or NULL */
    int activation;              /* SWIFTDARKNET_INT8_* activation */
    float output_scale;          /* u8 output only, > 0 */
    int32_t output_zero_point;   /* u8 output only, 0 ... 255 */
} swiftdarknet_int8_epilogue;

/* Bytes of packed A for M x K, and of packed B for K x N. */
ptrdiff_t swiftdarknet_int8_packed_a_bytes(ptrdiff_t m, ptrdiff_t k);
ptrdiff_t swiftdarknet_int8_packed_b_bytes(ptrdiff_t k, ptrdiff_t n);

/* Packs row-major int8 A (M x K, row stride lda) into `packed` (packed_a_bytes), padding with 0. */
void swiftdarknet_int8_pack_a(const int8_t *a, ptrdiff_t m, ptrdiff_t k, ptrdiff_t lda, int8_t *packed);

/* sums[m] = the sum of row m of A (M x K, row stride lda). */
void swiftdarknet_int8_row_sums(const int8_t *a, ptrdiff_t m, ptrdiff_t k, ptrdiff_t lda, int32_t *sums);

/* Packs row-major uint8 B (K x N, row stride ldb) into `packed` (packed_b_bytes), padding with 0:
 * the quads of k [quad_begin, quad_end) (all: 0, ceil(K / 4)), so threads can split the work.
 * For a 1x1 stride-1 convolution, B is the CHW input itself (K = channels, N = the plane). */
void swiftdarknet_int8_pack_b(const uint8_t *b, ptrdiff_t k, ptrdiff_t n, ptrdiff_t ldb, uint8_t *packed,
                              ptrdiff_t quad_begin, ptrdiff_t quad_end);

/* im2col of a uint8 CHW tensor written straight into packed-B layout (K = channels * size *
 * size in Darknet's (channel, kernel row, kernel column) order, N = out_height * out_width):
 * positions in the zero padding take `pad_value` (the activation zero point, the code of 0.0).
 * Writes the quads of k [quad_begin, quad_end), as swiftdarknet_int8_pack_b. */
void swiftdarknet_int8_im2col_packed(const uint8_t *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                     ptrdiff_t size, ptrdiff_t stride, ptrdiff_t pad, uint8_t pad_value,
                                     ptrdiff_t out_height, ptrdiff_t out_width, uint8_t *packed,
                                     ptrdiff_t quad_begin, ptrdiff_t quad_end);

/* out[i] = clamp(rint(x[i] * (1 / scale)) + zero_point, 0, 255), rounding half to even; NaN ->
 * zero_point: the product by the float reciprocal (a division takes twice as long with
 * AVX-512), here and in the epilogue's codes alike. An entry of the vector kernel sets: every
 * set gives the same codes. */
typedef void swiftdarknet_quantize_u8_fn(const float *x, ptrdiff_t count, float scale, int32_t zero_point,
                                         uint8_t *out);

/* out[i] = clamp(rint(x[i] / scale), -128, 127), rounding half to even; NaN -> 0. */
void swiftdarknet_quantize_s8(const float *x, ptrdiff_t count, float scale, int8_t *out);

/* Symmetric per-row quantization of float weights (M x K, row-major) to -limit ... limit
 * (1 ... 127): scales[m] = max|w[m, :]| / limit and q = rint(w / scales[m]); a row of zeros gets
 * scale 0 and zeros. */
void swiftdarknet_quantize_rows_symmetric(const float *w, ptrdiff_t m, ptrdiff_t k, int limit, int8_t *q,
                                          float *scales);

/* What the GEMM and direct convolutions store. */
enum {
    SWIFTDARKNET_INT8_OUTPUT_S32 = 0, /* the raw int32 accumulators (no epilogue) */
    SWIFTDARKNET_INT8_OUTPUT_F32 = 1, /* float after the epilogue */
    SWIFTDARKNET_INT8_OUTPUT_U8 = 2   /* uint8 after the epilogue, requantized with output_scale and output_zero_point */
};

/* C = A B for packed A (M x K) and packed B (K x N), columns [n_begin, n_end) of rows
 * [m_begin, m_end) (n_begin a multiple of SWIFTDARKNET_INT8_STRIP and m_begin a multiple of
 * 8, so threads can split N or M), stored as `output` (SWIFTDARKNET_INT8_OUTPUT_*; `epilogue`
 * unused, may be NULL, for S32). K <= SWIFTDARKNET_INT8_MAX_K. Row m's outputs go to c + m * ldc,
 * elements of the output's type. */
typedef void swiftdarknet_int8_gemm_fn(const int8_t *packed_a, const uint8_t *packed_b, ptrdiff_t m, ptrdiff_t n,
                                       ptrdiff_t k, int output, const swiftdarknet_int8_epilogue *epilogue, void *c,
                                       ptrdiff_t ldc, ptrdiff_t n_begin, ptrdiff_t n_end, ptrdiff_t m_begin,
                                       ptrdiff_t m_end);

/*
 * Direct int8 convolution at stride 1 or 2, without im2col. The input's codes are laid out once
 * as channel quads of padded planes, 4 channels' bytes side by side per pixel, the border and the
 * missing channels of the last quad holding the zero point: at stride 1 [ceil(C / 4)][H + 2p][W +
 * 2p][4] bytes; at stride 2 each quad's padded plane split into its 4 phases (even and odd rows
 * times even and odd columns), [ceil(C / 4)][2][2][ceil((H + 2p) / 2)][ceil((W + 2p) / 2)][4]. Then
 * the packed-B columns of one quad of k (4 channels at one kernel offset) that lie in one output
 * row are contiguous bytes of one plane. The GEMM runs over the output's columns j = y *
 * out_width + x. Each panel of B (the variant's strips over all of K) is gathered from the layout
 * into the caller's `panel`, a piece per output row a strip of 16 columns meets, then the
 * variant's own tile runs on it, so every variant gives the integers its im2col GEMM gives. The
 * weights (packed A) must have k in the order ((quad * size + kernel row) * size + kernel
 * column) * 4 + channel % 4, zero for channels beyond C.
 */
/* The largest kernel side the direct convolutions take. */
#define SWIFTDARKNET_INT8_DIRECT_MAX_SIZE 11

typedef struct {
    const uint8_t *layout;         /* swiftdarknet_int8_direct_layout's output */
    ptrdiff_t quads;               /* ceil(channels / 4) */
    ptrdiff_t padded_height, padded_width;
    ptrdiff_t size;                /* kernel size; the output is (padded - size) / stride + 1 on each side */
    ptrdiff_t stride;              /* 1 or 2, as the layout was written */
} swiftdarknet_int8_direct_input;

/* Pixels along one side of a layout plane: a padded side of `padded` pixels split into `stride`
 * phases (stride 1: the padded side itself). */
static inline ptrdiff_t swiftdarknet_int8_direct_phase_side(ptrdiff_t padded, ptrdiff_t stride) {
    return (padded + stride - 1) / stride;
}

/* Bytes of the layout. */
ptrdiff_t swiftdarknet_int8_direct_layout_bytes(ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                                ptrdiff_t padding, ptrdiff_t stride);
/* Lays out CHW codes (channels x height x width) as above: the quads [quad_begin, quad_end),
 * so threads can split the work. */
void swiftdarknet_int8_direct_layout(const uint8_t *codes, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                     ptrdiff_t padding, ptrdiff_t stride, uint8_t zero_point, uint8_t *layout,
                                     ptrdiff_t quad_begin, ptrdiff_t quad_end);
/* Bytes of one thread's panel for K (= quads * 4 * size * size) and N output columns. */
ptrdiff_t swiftdarknet_int8_direct_panel_bytes(ptrdiff_t k, ptrdiff_t n);
/* The convolution's output columns [n_begin, n_end) (n_begin a multiple of
 * SWIFTDARKNET_INT8_STRIP; all: 0, out_height * out_width) for every filter, after the
 * epilogue, into the CHW output c (filter m's plane at c + m * out_height * out_width), as
 * `output` (SWIFTDARKNET_INT8_OUTPUT_F32 or _U8, requantized as the GEMM's). */
typedef void swiftdarknet_int8_direct_fn(const int8_t *packed_a, ptrdiff_t m,
                                         const swiftdarknet_int8_direct_input *input, int output,
                                         const swiftdarknet_int8_epilogue *epilogue, void *c, uint8_t *panel,
                                         ptrdiff_t n_begin, ptrdiff_t n_end);

/*
 * The direct convolution in 16-bit integers: activations symmetric, code = clamp(rint(x *
 * inverse_scale), -limit, limit), NaN -> 0, in the layout above with channel pairs of int16
 * codes in each pixel's 4 bytes (`quads` of swiftdarknet_int8_direct_input counts pairs; the
 * border and a last pair's missing channel hold 0); int16 weights in the order
 * ((pair * size + kernel row) * size + kernel column) * 2 + channel % 2, packed as
 * swiftdarknet_int8_pack_a packs their bytes (K of 2 bytes per value). The sums are exact while
 * K * (largest weight) * limit < 2^31. Every variant computes the same integers; float output. */
ptrdiff_t swiftdarknet_int16_direct_layout_bytes(ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                                 ptrdiff_t padding, ptrdiff_t stride);
/* Quantizes CHW floats into the 16-bit layout for stride 1 or 2: the pairs [pair_begin,
 * pair_end). An entry of the vector kernel sets; every set gives the same codes. */
typedef void swiftdarknet_int16_direct_layout_fn(const float *input, ptrdiff_t channels, ptrdiff_t height,
                                                 ptrdiff_t width, ptrdiff_t padding, ptrdiff_t stride,
                                                 float inverse_scale, int32_t limit, uint8_t *layout,
                                                 ptrdiff_t pair_begin, ptrdiff_t pair_end);
/* The integer kernel sets' direct convolution in 16 bits has the type swiftdarknet_int8_direct_fn
 * (float output only). */

/* Max pooling of CHW 8-bit codes with Darknet's [maxpool] geometry (windows from -padding / 2,
 * cells outside the input ignored): the codes of the pooled floats, since quantization is
 * monotonic (a NaN, coded as the zero point, is the exception). */
void swiftdarknet_maxpool_u8(const uint8_t *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                             ptrdiff_t size, ptrdiff_t stride_x, ptrdiff_t stride_y, ptrdiff_t padding,
                             ptrdiff_t out_height, ptrdiff_t out_width, uint8_t *output);

#ifdef __cplusplus
}
#endif
#endif
