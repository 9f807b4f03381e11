/*
 * The AVX-VNNI integer kernel set: the 256-bit tile with VEX-encoded vpdpbusd (8-bit) and
 * vpdpwssd (16-bit), for CPUs with AVX-VNNI (Alder Lake and later, Zen 5).
 */
#if defined(__x86_64__)
#include "../generic/IntegerCommon.h"

#include <immintrin.h>
#include <string.h>

#pragma clang attribute push(__attribute__((target("avx2,avxvnni"))), apply_to = function)
#define TILE256_NAME int8_tile_avx_vnni
#define TILE256_STEP _mm256_dpbusd_avx_epi32
#include "IntegerTile256.h"
#define TILE256_NAME int16_tile_avx_vnni
#define TILE256_STEP _mm256_dpwssd_avx_epi32
#include "IntegerTile256.h"

#define SUFFIX avx_vnni
#define ARCHITECTURE SWIFTDARKNET_ARCH_X86_64
#define REQUIRED_EXTENSIONS (SWIFTDARKNET_CPU_AVX2 | SWIFTDARKNET_CPU_AVXVNNI)
#define INT8_TILE int8_tile_avx_vnni
#define INT8_TILE_STRIPS 1
#define INT16_TILE int16_tile_avx_vnni
#include "../generic/IntegerKernelsTemplate.h"
#pragma clang attribute pop
#endif
