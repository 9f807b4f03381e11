/*
 * The AVX-512 VNNI integer kernel sets: `avx512_vnni`, 8 rows x 3 strips in zmm accumulators
 * with vpdpbusd / vpdpwssd and a 16-lane epilogue; and `avx_vnni_evex`, the AVX-VNNI tile's
 * source compiled EVEX-encoded, which lets a CPU with AVX-512 VNNI but no AVX-VNNI run (and test)
 * that tile. The second is never chosen on its own.
 */
#if defined(__x86_64__)
#include "../generic/IntegerCommon.h"

#include <immintrin.h>
#include <string.h>

#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vnni"))), apply_to = function)
#define TILE256_NAME int8_tile_avx_vnni_evex
#define TILE256_STEP _mm256_dpbusd_epi32
#include "IntegerTile256.h"
#define TILE256_NAME int16_tile_avx_vnni_evex
#define TILE256_STEP _mm256_dpwssd_epi32
#include "IntegerTile256.h"

#define SUFFIX avx_vnni_evex
#define ARCHITECTURE SWIFTDARKNET_ARCH_X86_64
#define REQUIRED_EXTENSIONS (SWIFTDARKNET_CPU_AVX2 | SWIFTDARKNET_CPU_AVX512F | SWIFTDARKNET_CPU_AVX512BW | SWIFTDARKNET_CPU_AVX512VL | SWIFTDARKNET_CPU_AVX512VNNI)
#define INT8_TILE int8_tile_avx_vnni_evex
#define INT8_TILE_STRIPS 1
#define INT16_TILE int16_tile_avx_vnni_evex
#include "../generic/IntegerKernelsTemplate.h"

#define ZMM_TILE_NAME int8_tile_avx512vnni
#define ZMM_DOT _mm512_dpbusd_epi32
#include "IntegerTile512.h"
#define ZMM_TILE_NAME int16_tile_avx512vnni
#define ZMM_DOT _mm512_dpwssd_epi32
#include "IntegerTile512.h"

#define SUFFIX avx512_vnni
#define ARCHITECTURE SWIFTDARKNET_ARCH_X86_64
#define REQUIRED_EXTENSIONS (SWIFTDARKNET_CPU_AVX2 | SWIFTDARKNET_CPU_AVX512F | SWIFTDARKNET_CPU_AVX512BW | SWIFTDARKNET_CPU_AVX512VL | SWIFTDARKNET_CPU_AVX512VNNI)
#define INT8_TILE int8_tile_avx512vnni
#define INT8_TILE_STRIPS 3
#define INT16_TILE int16_tile_avx512vnni
#define INTEGER_EPILOGUE "../x86/IntegerEpilogueAVX512.h"
#include "../generic/IntegerKernelsTemplate.h"
#pragma clang attribute pop
#endif
