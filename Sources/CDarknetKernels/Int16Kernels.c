/*
 * The direct convolution in 16-bit integers (darknet_int8.h): the int8 direct loop nest and
 * epilogues instantiated with the 16-bit tiles (Int16Tiles.h) per instruction set, the layout
 * that quantizes floats into it, and the dispatch by variant.
 */
#include "darknet_int8.h"
#include "Int8Common.h"
#include "Int8Round.h"

#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "Int16Tiles.h"

/* Portable. */
#define INT8_TILE_STRIPS 1
#define SUFFIX s16_portable
#define INT8_TILE int16_tile_portable
#include "Int8Epilogue.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE

#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define VNNI256_NAME int16_tile_avx2
#define VNNI256_DPBUSD int16_madd_avx2
#include "Int8TileVNNI256.h"
#undef VNNI256_NAME
#undef VNNI256_DPBUSD
#define SUFFIX s16_avx2
#define INT8_TILE int16_tile_avx2
#include "Int8Epilogue.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE
#pragma clang attribute pop

#pragma clang attribute push(__attribute__((target("avx2,avxvnni"))), apply_to = function)
#define VNNI256_NAME int16_tile_avx_vnni
#define VNNI256_DPBUSD _mm256_dpwssd_avx_epi32
#include "Int8TileVNNI256.h"
#undef VNNI256_NAME
#undef VNNI256_DPBUSD
#define SUFFIX s16_avx_vnni
#define INT8_TILE int16_tile_avx_vnni
#include "Int8Epilogue.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE
#pragma clang attribute pop

#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vnni"))), apply_to = function)
#define VNNI256_NAME int16_tile_avx_vnni_evex
#define VNNI256_DPBUSD _mm256_dpwssd_epi32
#include "Int8TileVNNI256.h"
#undef VNNI256_NAME
#undef VNNI256_DPBUSD
#define SUFFIX s16_avx_vnni_evex
#define INT8_TILE int16_tile_avx_vnni_evex
#include "Int8Epilogue.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE
#undef INT8_TILE_STRIPS

#define INT8_TILE_STRIPS 3
#define ZMM_TILE_NAME int16_tile_avx512vnni
#define ZMM_DOT _mm512_dpwssd_epi32
#include "Int8TileAVX512VNNI.h"
#undef ZMM_TILE_NAME
#undef ZMM_DOT
#define SUFFIX s16_avx512_vnni
#define INT8_TILE int16_tile_avx512vnni
#include "Int8EpilogueAVX512.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE
#pragma clang attribute pop
#endif
#undef INT8_TILE_STRIPS

void swiftdarknet_int16_direct_f32(int variant, const int8_t *packed_a, ptrdiff_t m,
                                   const swiftdarknet_int8_direct_input *input,
                                   const swiftdarknet_int8_epilogue *epilogue, float *c, uint8_t *panel,
                                   ptrdiff_t n_begin, ptrdiff_t n_end) {
    if (!swiftdarknet_int8_supported(variant)) variant = SWIFTDARKNET_INT8_PORTABLE;
    switch (variant) {
#if defined(__x86_64__)
    case SWIFTDARKNET_INT8_AVX512_VNNI:
        int8_direct_s16_avx512_vnni(packed_a, m, input, INT8_OUTPUT_F32, epilogue, c, panel, n_begin, n_end);
        return;
    case SWIFTDARKNET_INT8_AVX_VNNI:
        int8_direct_s16_avx_vnni(packed_a, m, input, INT8_OUTPUT_F32, epilogue, c, panel, n_begin, n_end);
        return;
    case SWIFTDARKNET_INT8_AVX_VNNI_EVEX:
        int8_direct_s16_avx_vnni_evex(packed_a, m, input, INT8_OUTPUT_F32, epilogue, c, panel, n_begin, n_end);
        return;
    case SWIFTDARKNET_INT8_AVX2:
        int8_direct_s16_avx2(packed_a, m, input, INT8_OUTPUT_F32, epilogue, c, panel, n_begin, n_end);
        return;
#endif
    default: int8_direct_s16_portable(packed_a, m, input, INT8_OUTPUT_F32, epilogue, c, panel, n_begin, n_end); return;
    }
}

/* The code of x: clamp(rint(x * inverse_scale), -limit, limit), NaN -> 0. */
static inline int32_t int16_code(float x, float inverse_scale, float limit) {
    return (int32_t)int8_round_within(x * inverse_scale, limit);
}

static void int16_pixels_portable(const float *x0, const float *x1, ptrdiff_t count, float inverse_scale, float limit,
                                  uint8_t *out) {
    for (ptrdiff_t i = 0; i < count; i++) {
        const uint32_t pair = (uint32_t)(uint16_t)int16_code(x0[i], inverse_scale, limit) |
                              (uint32_t)(uint16_t)(x1 ? int16_code(x1[i], inverse_scale, limit) : 0) << 16;
        memcpy(out + i * 4, &pair, 4);
    }
}

#if defined(__x86_64__)
__attribute__((target("avx512f"), always_inline)) static inline __m512i int16_codes16(__m512 x, __m512 inverse,
                                                                                   __m512 limit) {
    return _mm512_cvttps_epi32(int8_round_within16(_mm512_mul_ps(x, inverse), limit));
}

/* 16 pixels at a time, the portable steps; the rest by the portable loop. */
__attribute__((target("avx512f"))) static void int16_pixels_avx512(const float *x0, const float *x1, ptrdiff_t count,
                                                                    float inverse_scale, float limit, uint8_t *out) {
    const __m512 inverse = _mm512_set1_ps(inverse_scale), bound = _mm512_set1_ps(limit);
    const __m512i low = _mm512_set1_epi32(0xFFFF);
    ptrdiff_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const __m512i first = _mm512_and_si512(int16_codes16(_mm512_loadu_ps(x0 + i), inverse, bound), low);
        const __m512i second = x1 ? _mm512_slli_epi32(int16_codes16(_mm512_loadu_ps(x1 + i), inverse, bound), 16)
                                  : _mm512_setzero_si512();
        _mm512_storeu_si512((void *)(out + i * 4), _mm512_or_si512(first, second));
    }
    int16_pixels_portable(x0 + i, x1 ? x1 + i : NULL, count - i, inverse_scale, limit, out + i * 4);
}
#endif

ptrdiff_t swiftdarknet_int16_direct_layout_bytes(ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                                 ptrdiff_t padding, ptrdiff_t size) {
    /* A pair of int16 channels takes the 4 bytes a quad of 8-bit ones does. */
    return swiftdarknet_int8_direct_layout_bytes(2 * channels, height, width, padding, size);
}

void swiftdarknet_int16_direct_layout(const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width,
                                      ptrdiff_t padding, ptrdiff_t size, float inverse_scale, int32_t limit,
                                      uint8_t *layout, ptrdiff_t pair_begin, ptrdiff_t pair_end) {
    const ptrdiff_t pairs = (channels + 1) / 2;
    const ptrdiff_t padded_width = width + 2 * padding, row_bytes = padded_width * 4;
    const ptrdiff_t plane = (height + 2 * padding) * row_bytes, plane_in = height * width;
    const float bound = (float)limit;
    int wide = 0;
#if defined(__x86_64__)
    __builtin_cpu_init();
    wide = __builtin_cpu_supports("avx512f");
#endif
    if (pair_end > pairs) pair_end = pairs;
    for (ptrdiff_t p = pair_begin; p < pair_end; p++) {
        uint8_t *out = layout + p * plane;
        memset(out, 0, (size_t)(padding * row_bytes));
        memset(out + (padding + height) * row_bytes, 0, (size_t)(padding * row_bytes));
        const float *first = input + 2 * p * plane_in;
        const float *second = 2 * p + 1 < channels ? first + plane_in : NULL;
        for (ptrdiff_t y = 0; y < height; y++) {
            uint8_t *line = out + (padding + y) * row_bytes;
            memset(line, 0, (size_t)(padding * 4));
            memset(line + (padding + width) * 4, 0, (size_t)(padding * 4));
            const float *x0 = first + y * width, *x1 = second ? second + y * width : NULL;
#if defined(__x86_64__)
            if (wide) {
                int16_pixels_avx512(x0, x1, width, inverse_scale, bound, line + padding * 4);
                continue;
            }
#endif
            int16_pixels_portable(x0, x1, width, inverse_scale, bound, line + padding * 4);
        }
    }
    if (pair_begin < pairs && pair_end == pairs) {
        const ptrdiff_t total = swiftdarknet_int16_direct_layout_bytes(channels, height, width, padding, size);
        memset(layout + pairs * plane, 0, (size_t)(total - pairs * plane));
    }
}
