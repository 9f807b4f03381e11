/*
 * Instantiates every kernel for each instruction set and dispatches on the CPU's features.
 */
#include "darknet_kernels.h"

#include <stdint.h>
#include <string.h>

/* Baseline: 4 lanes (SSE2 on x86-64, NEON on arm64). */
#define LANES 4
#define FILTER_BLOCK 4
#define VECTOR_BLOCK 2
#define SUFFIX base
#define WINOGRAD_TILE_BLOCK 2
#define WINOGRAD_FILTER_VECTORS 4
#define SPLAT_INDICES 0, 0, 0, 0
#define EVEN_INDICES 0, 2, 4, 6
#define ODD_INDICES 1, 3, 5, 7
#include "Variant.h"

#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#define LANES 8
/* 8 accumulators, 2 input vectors and a broadcast: 11 of the 16 registers. A 4 x 3 block fits
 * exactly (16), but clang keeps a second broadcast live and spills an accumulator to the stack on
 * every tap, a store-to-load chain (YOLOv3-tiny's first two convolutions 1.5x slower than with
 * this block; Benchmarks/PERFORMANCE.md). */
#define FILTER_BLOCK 4
#define VECTOR_BLOCK 2
#define SUFFIX avx2
#define WINOGRAD_TILE_BLOCK 6
#define WINOGRAD_FILTER_VECTORS 2
#define SPLAT_INDICES 0, 0, 0, 0, 0, 0, 0, 0
#define EVEN_INDICES 0, 2, 4, 6, 8, 10, 12, 14
#define ODD_INDICES 1, 3, 5, 7, 9, 11, 13, 15
#include "Variant.h"
#pragma clang attribute pop

#pragma clang attribute push(__attribute__((target("avx512f,fma"))), apply_to = function)
#define LANES 16
#define FILTER_BLOCK 8
#define VECTOR_BLOCK 3
#define SUFFIX avx512
#define WINOGRAD_TILE_BLOCK 8
#define WINOGRAD_FILTER_VECTORS 3
#define SPLAT_INDICES 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define EVEN_INDICES 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30
#define ODD_INDICES 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31
#include "Variant.h"
#pragma clang attribute pop
#endif

static int detect_simd_level(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma")) return 2;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 1;
#endif
    return 0;
}

static int simd_level = -1;

int swiftdarknet_simd_level(void) {
    int value = __atomic_load_n(&simd_level, __ATOMIC_RELAXED);
    if (value < 0) {
        value = detect_simd_level();
        __atomic_store_n(&simd_level, value, __ATOMIC_RELAXED);
    }
    return value;
}

int swiftdarknet_limit_simd_level(int maximum) {
    int detected = detect_simd_level();
    int value = maximum < detected ? maximum : detected;
    if (value < 0) value = 0;
    __atomic_store_n(&simd_level, value, __ATOMIC_RELAXED);
    return value;
}

/* Calls the widest variant of `name` this CPU runs. */
#if defined(__x86_64__)
#define DISPATCH(name, ...)                                        \
    switch (swiftdarknet_simd_level()) {                           \
    case 2: name##_avx512(__VA_ARGS__); return;                    \
    case 1: name##_avx2(__VA_ARGS__); return;                      \
    default: name##_base(__VA_ARGS__); return;                     \
    }
/* DISPATCH for a variant that returns a value. */
#define DISPATCH_RETURNING(name, ...)                              \
    switch (swiftdarknet_simd_level()) {                           \
    case 2: return name##_avx512(__VA_ARGS__);                     \
    case 1: return name##_avx2(__VA_ARGS__);                       \
    default: return name##_base(__VA_ARGS__);                      \
    }
#else
#define DISPATCH(name, ...) name##_base(__VA_ARGS__);
#define DISPATCH_RETURNING(name, ...) return name##_base(__VA_ARGS__);
#endif

void swiftdarknet_convolve_direct(const float *padded, ptrdiff_t channels, ptrdiff_t padded_height,
                                  ptrdiff_t padded_width, const float *weights, const float *biases,
                                  ptrdiff_t filters, ptrdiff_t size, float *output, ptrdiff_t out_height,
                                  ptrdiff_t out_width, ptrdiff_t row_begin, ptrdiff_t row_end, int epilogue) {
    DISPATCH(swiftdarknet_convolve_direct, padded, channels, padded_height, padded_width, weights, biases, filters,
             size, output, out_height, out_width, row_begin, row_end, epilogue)
}

void swiftdarknet_convolve_direct_maxpool2(const float *padded, ptrdiff_t channels, ptrdiff_t padded_height,
                                           ptrdiff_t padded_width, const float *weights, const float *biases,
                                           ptrdiff_t filters, ptrdiff_t size, float *pooled, ptrdiff_t out_height,
                                           ptrdiff_t out_width, ptrdiff_t pooled_begin, ptrdiff_t pooled_end,
                                           int epilogue) {
    DISPATCH(swiftdarknet_convolve_direct_maxpool2, padded, channels, padded_height, padded_width, weights, biases,
             filters, size, pooled, out_height, out_width, pooled_begin, pooled_end, epilogue)
}

void swiftdarknet_convolve_stride2(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                   ptrdiff_t pad, const float *weights, const float *biases, ptrdiff_t filters,
                                   ptrdiff_t size, float *output, ptrdiff_t out_height, ptrdiff_t out_width,
                                   ptrdiff_t row_begin, ptrdiff_t row_end, ptrdiff_t band_rows, float *band,
                                   int epilogue) {
    DISPATCH(swiftdarknet_convolve_stride2, input, channels, height, width, pad, weights, biases, filters, size,
             output, out_height, out_width, row_begin, row_end, band_rows, band, epilogue)
}

void swiftdarknet_maxpool2x2(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                             ptrdiff_t stride, float *output, ptrdiff_t out_height, ptrdiff_t out_width) {
    DISPATCH(swiftdarknet_maxpool2x2, input, channels, height, width, stride, output, out_height, out_width)
}

void swiftdarknet_winograd_input(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                 ptrdiff_t first_row, ptrdiff_t tile_rows, ptrdiff_t tile_columns,
                                 float *transformed, float *scratch, ptrdiff_t first, ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_input, input, channels, height, width, first_row, tile_rows, tile_columns,
             transformed, scratch, first, count)
}

void swiftdarknet_winograd_output(const float *products, ptrdiff_t filters, ptrdiff_t height, ptrdiff_t width,
                                  ptrdiff_t tile_rows, ptrdiff_t tile_columns, const float *biases, int epilogue,
                                  float *output, float *scratch, ptrdiff_t first, ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_output, products, filters, height, width, tile_rows, tile_columns, biases,
             epilogue, output, scratch, first, count)
}

void swiftdarknet_activate(float *data, ptrdiff_t count, int kind) {
    DISPATCH(swiftdarknet_activate, data, count, kind)
}

void swiftdarknet_bias_activate(float *data, const float *biases, ptrdiff_t channels, ptrdiff_t plane, int kind) {
    DISPATCH(swiftdarknet_bias_activate, data, biases, channels, plane, kind)
}

void swiftdarknet_weighted_sum(const float *previous, const float *from, ptrdiff_t count, float alpha, float beta,
                               float *output) {
    DISPATCH(swiftdarknet_weighted_sum, previous, from, count, alpha, beta, output)
}

void swiftdarknet_copy_even(const float *source, float *destination, ptrdiff_t count) {
    DISPATCH(swiftdarknet_copy_even, source, destination, count)
}

void swiftdarknet_winograd_output_tile_major(const float *products, ptrdiff_t filters_padded, ptrdiff_t height,
                                             ptrdiff_t width, ptrdiff_t first_row, ptrdiff_t tile_rows,
                                             ptrdiff_t tile_columns, const float *biases, int epilogue, float *output,
                                             ptrdiff_t first, ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_output_tile_major, products, filters_padded, height, width, first_row, tile_rows,
             tile_columns, biases, epilogue, output, first, count)
}

void swiftdarknet_pointwise(const float *weights, const float *input, ptrdiff_t channels, ptrdiff_t filters,
                            ptrdiff_t plane, ptrdiff_t first, ptrdiff_t count, const float *biases, int activation,
                            float *packed, float *products, float *output) {
    DISPATCH(swiftdarknet_pointwise, weights, input, channels, filters, plane, first, count, biases, activation, packed,
             products, output)
}

void swiftdarknet_winograd_products_tile_major(const float *u, const float *v, float *products, ptrdiff_t channels,
                                               ptrdiff_t filters_padded, ptrdiff_t tiles, ptrdiff_t first,
                                               ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_products_tile_major, u, v, products, channels, filters_padded, tiles, first, count)
}

void swiftdarknet_winograd_f23_input(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                     ptrdiff_t first_row, ptrdiff_t tile_rows, ptrdiff_t tile_columns,
                                     float *transformed, float *scratch, ptrdiff_t first, ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_f23_input, input, channels, height, width, first_row, tile_rows, tile_columns,
             transformed, scratch, first, count)
}

void swiftdarknet_winograd_f23_output_tile_major(const float *products, ptrdiff_t filters_padded, ptrdiff_t height,
                                                 ptrdiff_t width, ptrdiff_t first_row, ptrdiff_t tile_rows,
                                                 ptrdiff_t tile_columns, const float *biases, int epilogue, float *output,
                                                 ptrdiff_t first, ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_f23_output_tile_major, products, filters_padded, height, width, first_row, tile_rows,
             tile_columns, biases, epilogue, output, first, count)
}

ptrdiff_t swiftdarknet_winograd_weight_blocks(ptrdiff_t filters, ptrdiff_t channels, int channel_major) {
    return channel_major ? swiftdarknet_winograd_padded_filters(filters) / 16 : (filters * channels + 15) / 16;
}

float swiftdarknet_winograd_weights(const float *g, const float *filter_scales, ptrdiff_t filters,
                                    ptrdiff_t channels, int channel_major, float *u, ptrdiff_t first_block,
                                    ptrdiff_t block_count) {
    DISPATCH_RETURNING(swiftdarknet_winograd_weights, g, filter_scales, filters, channels, 6, channel_major, u,
                       first_block, block_count)
}

float swiftdarknet_winograd_f23_weights(const float *g, const float *filter_scales, ptrdiff_t filters,
                                        ptrdiff_t channels, float *u, ptrdiff_t first_block, ptrdiff_t block_count) {
    DISPATCH_RETURNING(swiftdarknet_winograd_weights, g, filter_scales, filters, channels, 4, 1, u, first_block,
                       block_count)
}

void swiftdarknet_yuv_to_rgb(const uint8_t *luma, const uint8_t *cb, const uint8_t *cr, ptrdiff_t chroma_step, int odd,
                             ptrdiff_t count, const int16_t *coefficients, int16_t *scratch, uint8_t *red,
                             uint8_t *green, uint8_t *blue) {
    DISPATCH(swiftdarknet_yuv_to_rgb, luma, cb, cr, chroma_step, odd, count, coefficients, scratch, red, green, blue)
}
