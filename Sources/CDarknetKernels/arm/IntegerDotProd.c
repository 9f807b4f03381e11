/*
 * The arm64 integer kernel set with dot products (FEAT_DotProd, ARMv8.2: Cortex-A55/A76 and
 * later, Neoverse N1, Apple M1): the 8-bit tile with SDOT by element on flipped activations
 * (IntegerTileDot.h), 16 products per instruction; the 16-bit tile with smlal (IntegerTileWiden.h).
 */
#if defined(__aarch64__)
#include "../generic/IntegerCommon.h"

#include <arm_neon.h>

#pragma clang attribute push(__attribute__((target("dotprod"))), apply_to = function)
#include "IntegerTileWiden.h"
#define DOT_TILE_NAME int8_tile_dotprod
#define DOT_TILE_SIGNED 1
#include "IntegerTileDot.h"

#define SUFFIX dotprod
#define ARCHITECTURE SWIFTDARKNET_ARCH_ARM64
#define REQUIRED_EXTENSIONS (SWIFTDARKNET_CPU_NEON | SWIFTDARKNET_CPU_DOTPROD)
#define INT8_TILE int8_tile_dotprod
#define INT8_TILE_STRIPS 1
#define INT16_TILE int16_tile_neon
#include "../generic/IntegerKernelsTemplate.h"
#pragma clang attribute pop
#endif
