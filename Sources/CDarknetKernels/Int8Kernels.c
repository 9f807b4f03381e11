/*
 * The int8 GEMM (darknet_int8.h): each variant's tile and the shared loop nest and epilogue,
 * instantiated per instruction set with a per-function target, and the dispatch by variant.
 */
#include "darknet_int8.h"
#include "Int8Common.h"
#include "Int8Round.h"

#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Portable. */
#define INT8_TILE_STRIPS 1
#include "Int8TilePortable.h"
#define SUFFIX portable
#define INT8_TILE int8_tile_portable
#include "Int8Epilogue.h"
#include "Int8Driver.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE

#if defined(__x86_64__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#include "Int8TileAVX2.h"
#define SUFFIX avx2
#define INT8_TILE int8_tile_avx2
#include "Int8Epilogue.h"
#include "Int8Driver.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE
#include "Int8TileAVX2Narrow.h"
#define VNNI256_NAME int8_tile_avx2_narrow
#define VNNI256_DPBUSD int8_dot_avx2_narrow
#include "Int8TileVNNI256.h"
#undef VNNI256_NAME
#undef VNNI256_DPBUSD
#define SUFFIX avx2_narrow
#define INT8_TILE int8_tile_avx2_narrow
#include "Int8Epilogue.h"
#include "Int8Driver.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE
#pragma clang attribute pop

#pragma clang attribute push(__attribute__((target("avx2,avxvnni"))), apply_to = function)
#define VNNI256_NAME int8_tile_avx_vnni
#define VNNI256_DPBUSD _mm256_dpbusd_avx_epi32
#include "Int8TileVNNI256.h"
#undef VNNI256_NAME
#undef VNNI256_DPBUSD
#define SUFFIX avx_vnni
#define INT8_TILE int8_tile_avx_vnni
#include "Int8Epilogue.h"
#include "Int8Driver.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE
#pragma clang attribute pop

#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vnni"))), apply_to = function)
#define VNNI256_NAME int8_tile_avx_vnni_evex
#define VNNI256_DPBUSD _mm256_dpbusd_epi32
#include "Int8TileVNNI256.h"
#undef VNNI256_NAME
#undef VNNI256_DPBUSD
#define SUFFIX avx_vnni_evex
#define INT8_TILE int8_tile_avx_vnni_evex
#include "Int8Epilogue.h"
#include "Int8Driver.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE
#undef INT8_TILE_STRIPS

#define INT8_TILE_STRIPS 3
#define ZMM_TILE_NAME int8_tile_avx512vnni
#define ZMM_DOT _mm512_dpbusd_epi32
#include "Int8TileAVX512VNNI.h"
#undef ZMM_TILE_NAME
#undef ZMM_DOT
#define SUFFIX avx512_vnni
#define INT8_TILE int8_tile_avx512vnni
#include "Int8EpilogueAVX512.h"
#include "Int8Driver.h"
#include "Int8DirectDriver.h"
#undef SUFFIX
#undef INT8_TILE
#pragma clang attribute pop
#endif
#undef INT8_TILE_STRIPS

int swiftdarknet_int8_supported(int variant) {
    if (variant == SWIFTDARKNET_INT8_PORTABLE) return 1;
#if defined(__x86_64__)
    __builtin_cpu_init();
    const int avx2 = __builtin_cpu_supports("avx2");
    const int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                       __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
    switch (variant) {
    case SWIFTDARKNET_INT8_AVX2: return avx2;
    case SWIFTDARKNET_INT8_AVX2_NARROW: return avx2;
    case SWIFTDARKNET_INT8_AVX_VNNI: return avx2 && __builtin_cpu_supports("avxvnni");
    case SWIFTDARKNET_INT8_AVX512_VNNI: return avx2 && avx512;
    case SWIFTDARKNET_INT8_AVX_VNNI_EVEX: return avx2 && avx512;
    default: return 0;
    }
#else
    return 0;
#endif
}

int swiftdarknet_int8_best_variant(void) {
    static const int order[] = {SWIFTDARKNET_INT8_AVX512_VNNI, SWIFTDARKNET_INT8_AVX_VNNI, SWIFTDARKNET_INT8_AVX2};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (swiftdarknet_int8_supported(order[i])) return order[i];
    return SWIFTDARKNET_INT8_PORTABLE;
}

/* Runs `variant`, or the portable code if this CPU cannot (never an illegal instruction). */
static void int8_gemm(int variant, const int8_t *packed_a, const uint8_t *packed_b, ptrdiff_t m, ptrdiff_t n,
                      ptrdiff_t k, int kind, const swiftdarknet_int8_epilogue *epilogue, void *c, ptrdiff_t ldc,
                      ptrdiff_t n_begin, ptrdiff_t n_end, ptrdiff_t m_begin, ptrdiff_t m_end) {
    if (!swiftdarknet_int8_supported(variant)) variant = SWIFTDARKNET_INT8_PORTABLE;
    switch (variant) {
#if defined(__x86_64__)
    case SWIFTDARKNET_INT8_AVX512_VNNI:
        int8_gemm_avx512_vnni(packed_a, packed_b, m, n, k, kind, epilogue, c, ldc, n_begin, n_end, m_begin, m_end);
        return;
    case SWIFTDARKNET_INT8_AVX_VNNI:
        int8_gemm_avx_vnni(packed_a, packed_b, m, n, k, kind, epilogue, c, ldc, n_begin, n_end, m_begin, m_end);
        return;
    case SWIFTDARKNET_INT8_AVX_VNNI_EVEX:
        int8_gemm_avx_vnni_evex(packed_a, packed_b, m, n, k, kind, epilogue, c, ldc, n_begin, n_end, m_begin, m_end);
        return;
    case SWIFTDARKNET_INT8_AVX2:
        int8_gemm_avx2(packed_a, packed_b, m, n, k, kind, epilogue, c, ldc, n_begin, n_end, m_begin, m_end);
        return;
    case SWIFTDARKNET_INT8_AVX2_NARROW:
        int8_gemm_avx2_narrow(packed_a, packed_b, m, n, k, kind, epilogue, c, ldc, n_begin, n_end, m_begin, m_end);
        return;
#endif
    default: int8_gemm_portable(packed_a, packed_b, m, n, k, kind, epilogue, c, ldc, n_begin, n_end, m_begin, m_end); return;
    }
}

void swiftdarknet_int8_gemm_s32(int variant, const int8_t *packed_a, const uint8_t *packed_b, ptrdiff_t m,
                                ptrdiff_t n, ptrdiff_t k, int32_t *c, ptrdiff_t ldc, ptrdiff_t n_begin,
                                ptrdiff_t n_end, ptrdiff_t m_begin, ptrdiff_t m_end) {
    int8_gemm(variant, packed_a, packed_b, m, n, k, INT8_OUTPUT_S32, NULL, c, ldc, n_begin, n_end, m_begin, m_end);
}

void swiftdarknet_int8_gemm_f32(int variant, const int8_t *packed_a, const uint8_t *packed_b, ptrdiff_t m,
                                ptrdiff_t n, ptrdiff_t k, const swiftdarknet_int8_epilogue *epilogue, float *c,
                                ptrdiff_t ldc, ptrdiff_t n_begin, ptrdiff_t n_end, ptrdiff_t m_begin,
                                ptrdiff_t m_end) {
    int8_gemm(variant, packed_a, packed_b, m, n, k, INT8_OUTPUT_F32, epilogue, c, ldc, n_begin, n_end, m_begin, m_end);
}

void swiftdarknet_int8_gemm_u8(int variant, const int8_t *packed_a, const uint8_t *packed_b, ptrdiff_t m,
                               ptrdiff_t n, ptrdiff_t k, const swiftdarknet_int8_epilogue *epilogue, uint8_t *c,
                               ptrdiff_t ldc, ptrdiff_t n_begin, ptrdiff_t n_end, ptrdiff_t m_begin,
                               ptrdiff_t m_end) {
    int8_gemm(variant, packed_a, packed_b, m, n, k, INT8_OUTPUT_U8, epilogue, c, ldc, n_begin, n_end, m_begin, m_end);
}

/* Runs the direct convolution of `variant`, or the portable code if this CPU cannot. */
static void int8_direct(int variant, const int8_t *packed_a, ptrdiff_t m, const swiftdarknet_int8_direct_input *input,
                        int kind, const swiftdarknet_int8_epilogue *epilogue, void *c, uint8_t *panel,
                        ptrdiff_t n_begin, ptrdiff_t n_end) {
    if (!swiftdarknet_int8_supported(variant)) variant = SWIFTDARKNET_INT8_PORTABLE;
    switch (variant) {
#if defined(__x86_64__)
    case SWIFTDARKNET_INT8_AVX512_VNNI:
        int8_direct_avx512_vnni(packed_a, m, input, kind, epilogue, c, panel, n_begin, n_end);
        return;
    case SWIFTDARKNET_INT8_AVX_VNNI:
        int8_direct_avx_vnni(packed_a, m, input, kind, epilogue, c, panel, n_begin, n_end);
        return;
    case SWIFTDARKNET_INT8_AVX_VNNI_EVEX:
        int8_direct_avx_vnni_evex(packed_a, m, input, kind, epilogue, c, panel, n_begin, n_end);
        return;
    case SWIFTDARKNET_INT8_AVX2:
        int8_direct_avx2(packed_a, m, input, kind, epilogue, c, panel, n_begin, n_end);
        return;
    case SWIFTDARKNET_INT8_AVX2_NARROW:
        int8_direct_avx2_narrow(packed_a, m, input, kind, epilogue, c, panel, n_begin, n_end);
        return;
#endif
    default: int8_direct_portable(packed_a, m, input, kind, epilogue, c, panel, n_begin, n_end); return;
    }
}

void swiftdarknet_int8_direct_f32(int variant, const int8_t *packed_a, ptrdiff_t m,
                                  const swiftdarknet_int8_direct_input *input,
                                  const swiftdarknet_int8_epilogue *epilogue, float *c, uint8_t *panel,
                                  ptrdiff_t n_begin, ptrdiff_t n_end) {
    int8_direct(variant, packed_a, m, input, INT8_OUTPUT_F32, epilogue, c, panel, n_begin, n_end);
}

void swiftdarknet_int8_direct_u8(int variant, const int8_t *packed_a, ptrdiff_t m,
                                 const swiftdarknet_int8_direct_input *input,
                                 const swiftdarknet_int8_epilogue *epilogue, uint8_t *c, uint8_t *panel,
                                 ptrdiff_t n_begin, ptrdiff_t n_end) {
    int8_direct(variant, packed_a, m, input, INT8_OUTPUT_U8, epilogue, c, panel, n_begin, n_end);
}
