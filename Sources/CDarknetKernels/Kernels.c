/*
 * Instantiates every kernel for each instruction set and dispatches on the CPU's features.
 */
#include "darknet_kernels.h"

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
#define FILTER_BLOCK 4
#define VECTOR_BLOCK 3
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
#else
#define DISPATCH(name, ...) name##_base(__VA_ARGS__);
#endif

void swiftdarknet_convolve_direct(const float *padded, ptrdiff_t channels, ptrdiff_t padded_height,
                                  ptrdiff_t padded_width, const float *weights, const float *biases,
                                  ptrdiff_t filters, ptrdiff_t size, float *output, ptrdiff_t out_height,
                                  ptrdiff_t out_width, ptrdiff_t row_begin, ptrdiff_t row_end, int epilogue) {
    DISPATCH(swiftdarknet_convolve_direct, padded, channels, padded_height, padded_width, weights, biases, filters,
             size, output, out_height, out_width, row_begin, row_end, epilogue)
}

void swiftdarknet_maxpool2x2(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                             ptrdiff_t stride, float *output, ptrdiff_t out_height, ptrdiff_t out_width) {
    DISPATCH(swiftdarknet_maxpool2x2, input, channels, height, width, stride, output, out_height, out_width)
}

void swiftdarknet_winograd_input(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                 ptrdiff_t tile_rows, ptrdiff_t tile_columns, float *transformed, float *scratch,
                                 ptrdiff_t first, ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_input, input, channels, height, width, tile_rows, tile_columns, transformed,
             scratch, first, count)
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

void swiftdarknet_winograd_output_tile_major(const float *products, ptrdiff_t filters_padded, ptrdiff_t height,
                                             ptrdiff_t width, ptrdiff_t tile_rows, ptrdiff_t tile_columns,
                                             const float *biases, int epilogue, float *output, ptrdiff_t first,
                                             ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_output_tile_major, products, filters_padded, height, width, tile_rows,
             tile_columns, biases, epilogue, output, first, count)
}

void swiftdarknet_winograd_products_tile_major(const float *u, const float *v, float *products, ptrdiff_t channels,
                                               ptrdiff_t filters_padded, ptrdiff_t tiles, ptrdiff_t first,
                                               ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_products_tile_major, u, v, products, channels, filters_padded, tiles, first, count)
}

void swiftdarknet_winograd_f23_input(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                     ptrdiff_t tile_rows, ptrdiff_t tile_columns, float *transformed, float *scratch,
                                     ptrdiff_t first, ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_f23_input, input, channels, height, width, tile_rows, tile_columns, transformed,
             scratch, first, count)
}

void swiftdarknet_winograd_f23_output_tile_major(const float *products, ptrdiff_t filters_padded, ptrdiff_t height,
                                                 ptrdiff_t width, ptrdiff_t tile_rows, ptrdiff_t tile_columns,
                                                 const float *biases, int epilogue, float *output, ptrdiff_t first,
                                                 ptrdiff_t count) {
    DISPATCH(swiftdarknet_winograd_f23_output_tile_major, products, filters_padded, height, width, tile_rows,
             tile_columns, biases, epilogue, output, first, count)
}

/* `G g Gᵀ` of one 3x3 kernel into the 36 elements, element i at u[i * plane]. */
static void winograd_kernel(const float *k, float *u, ptrdiff_t plane) {
    /* G g (6x3), then (G g) Gᵀ (6x6), G = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6;
     * 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1]. */
    float gg[6][3];
    for (int j = 0; j < 3; j++) {
        const float g0 = k[j], g1 = k[3 + j], g2 = k[6 + j];
        gg[0][j] = g0 * 0.25f;
        gg[1][j] = (g0 + g1 + g2) * (-1.0f / 6);
        gg[2][j] = (g0 - g1 + g2) * (-1.0f / 6);
        gg[3][j] = g0 * (1.0f / 24) + g1 * (1.0f / 12) + g2 * (1.0f / 6);
        gg[4][j] = g0 * (1.0f / 24) - g1 * (1.0f / 12) + g2 * (1.0f / 6);
        gg[5][j] = g2;
    }
    for (int i = 0; i < 6; i++) {
        const float g0 = gg[i][0], g1 = gg[i][1], g2 = gg[i][2];
        const float row[6] = {g0 * 0.25f, (g0 + g1 + g2) * (-1.0f / 6), (g0 - g1 + g2) * (-1.0f / 6),
                              g0 * (1.0f / 24) + g1 * (1.0f / 12) + g2 * (1.0f / 6),
                              g0 * (1.0f / 24) - g1 * (1.0f / 12) + g2 * (1.0f / 6), g2};
        for (int j = 0; j < 6; j++) u[(i * 6 + j) * plane] = row[j];
    }
}

/* Blocks [first_block, first_block + block_count) of 16 filters, channel-major: every kernel's
 * `elements` values (by `kernel`) to u[element][block][channel][lane], zero past the last filter.
 * Each 16-filter slice goes through a local [elements][16] block, then one 64-byte row per element:
 * the element matrices lie a power of two apart, and a row per kernel would thrash. */
static inline __attribute__((always_inline)) void transform_channel_major(
    const float *g, ptrdiff_t filters, ptrdiff_t channels, float *u, ptrdiff_t first_block, ptrdiff_t block_count,
    int elements, void (*kernel)(const float *, float *, ptrdiff_t)) {
    float local[36 * 16];
    const ptrdiff_t plane = channels * swiftdarknet_winograd_padded_filters(filters);
    for (ptrdiff_t block = first_block; block < first_block + block_count; block++) {
        for (ptrdiff_t c = 0; c < channels; c++) {
            for (ptrdiff_t lane = 0; lane < 16; lane++) {
                const ptrdiff_t f = block * 16 + lane;
                if (f < filters) {
                    kernel(g + (f * channels + c) * 9, local + lane, 16);
                } else {
                    for (int i = 0; i < elements; i++) local[i * 16 + lane] = 0;
                }
            }
            float *out = u + block * channels * 16 + c * 16;
            for (int i = 0; i < elements; i++) memcpy(out + i * plane, local + i * 16, sizeof(float) * 16);
        }
    }
}

ptrdiff_t swiftdarknet_winograd_weight_blocks(ptrdiff_t filters, ptrdiff_t channels, int channel_major) {
    return channel_major ? swiftdarknet_winograd_padded_filters(filters) / 16 : (filters * channels + 15) / 16;
}

void swiftdarknet_winograd_weights(const float *g, ptrdiff_t filters, ptrdiff_t channels, int channel_major,
                                   float *u, ptrdiff_t first_block, ptrdiff_t block_count) {
    if (!channel_major) {
        /* As transform_channel_major, sixteen kernels at a time through a local block; here
         * consecutive kernels land next to each other in every element's matrix. */
        float local[36 * 16];
        const ptrdiff_t plane = filters * channels;
        for (ptrdiff_t block = first_block; block < first_block + block_count; block++) {
            const ptrdiff_t first = block * 16;
            const ptrdiff_t count = plane - first < 16 ? plane - first : 16;
            for (ptrdiff_t lane = 0; lane < count; lane++) winograd_kernel(g + (first + lane) * 9, local + lane, 16);
            for (int i = 0; i < 36; i++) memcpy(u + i * plane + first, local + i * 16, sizeof(float) * count);
        }
        return;
    }
    transform_channel_major(g, filters, channels, u, first_block, block_count, 36, winograd_kernel);
}

/* `G g Gᵀ` of one 3x3 kernel into the 16 elements of F(2x2, 3x3), element i at u[i * plane];
 * G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1]. */
static void winograd_f23_kernel(const float *k, float *u, ptrdiff_t plane) {
    float gg[4][3];
    for (int j = 0; j < 3; j++) {
        const float g0 = k[j], g1 = k[3 + j], g2 = k[6 + j];
        gg[0][j] = g0;
        gg[1][j] = (g0 + g1 + g2) * 0.5f;
        gg[2][j] = (g0 - g1 + g2) * 0.5f;
        gg[3][j] = g2;
    }
    for (int i = 0; i < 4; i++) {
        const float g0 = gg[i][0], g1 = gg[i][1], g2 = gg[i][2];
        const float row[4] = {g0, (g0 + g1 + g2) * 0.5f, (g0 - g1 + g2) * 0.5f, g2};
        for (int j = 0; j < 4; j++) u[(i * 4 + j) * plane] = row[j];
    }
}

void swiftdarknet_winograd_f23_weights(const float *g, ptrdiff_t filters, ptrdiff_t channels, float *u,
                                       ptrdiff_t first_block, ptrdiff_t block_count) {
    transform_channel_major(g, filters, channels, u, first_block, block_count, 16, winograd_f23_kernel);
}
