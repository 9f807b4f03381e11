/*
 * The AVX2 integer kernel sets, for x86-64 CPUs without VNNI: `avx2` multiplies nibble-split
 * activations with vpmaddubsw (exact for any weights; IntegerSteps.h) and 16-bit codes with
 * vpmaddwd; `avx2_narrow` multiplies whole bytes with vpmaddubsw, exact for weights within
 * +-SWIFTDARKNET_INT8_NARROW_LIMIT, at half the instructions (the caller picks it for such
 * weights).
 */
#if defined(__x86_64__)
#include "../generic/IntegerCommon.h"

#include <immintrin.h>
#include <string.h>

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#include "IntegerSteps.h"

#define TILE256_NAME int8_tile_avx2
#define TILE256_STEP int8_dot_avx2_nibbles
#include "IntegerTile256.h"
#define TILE256_NAME int16_tile_avx2
#define TILE256_STEP int16_madd_avx2
#include "IntegerTile256.h"
#define TILE256_NAME int8_tile_avx2_narrow
#define TILE256_STEP int8_dot_avx2_narrow
#include "IntegerTile256.h"

#define SUFFIX avx2
#define ARCHITECTURE SWIFTDARKNET_ARCH_X86_64
#define REQUIRED_EXTENSIONS SWIFTDARKNET_CPU_AVX2
#define INT8_TILE int8_tile_avx2
#define INT8_TILE_STRIPS 1
#define INT16_TILE int16_tile_avx2
#include "../generic/IntegerKernelsTemplate.h"

#define SUFFIX avx2_narrow
#define ARCHITECTURE SWIFTDARKNET_ARCH_X86_64
#define REQUIRED_EXTENSIONS SWIFTDARKNET_CPU_AVX2
#define INT8_TILE int8_tile_avx2_narrow
#define INT8_TILE_STRIPS 1
#include "../generic/IntegerKernelsTemplate.h"
#pragma clang attribute pop
#endif
