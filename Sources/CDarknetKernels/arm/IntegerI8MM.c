/*
 * The arm64 integer kernel set with FEAT_I8MM (ARMv8.6: Neoverse V1/N2, Cortex-A710 and later,
 * Apple M2): the 8-bit tile with USDOT by element, unsigned activations x signed weights as
 * vpdpbusd multiplies them (IntegerTileDot.h), 16 products per instruction and no correction;
 * the 16-bit tile with smlal (IntegerTileWiden.h).
 */
#if defined(__aarch64__)
#include "../generic/IntegerCommon.h"

#include <arm_neon.h>

#pragma clang attribute push(__attribute__((target("dotprod,i8mm"))), apply_to = function)
#include "IntegerTileWiden.h"
#define DOT_TILE_NAME int8_tile_i8mm
#define DOT_TILE_SIGNED 0
#include "IntegerTileDot.h"

#define SUFFIX i8mm
#define ARCHITECTURE SWIFTDARKNET_ARCH_ARM64
#define REQUIRED_EXTENSIONS (SWIFTDARKNET_CPU_NEON | SWIFTDARKNET_CPU_DOTPROD | SWIFTDARKNET_CPU_I8MM)
#define INT8_TILE int8_tile_i8mm
#define INT8_TILE_STRIPS 1
#define INT16_TILE int16_tile_neon
#include "../generic/IntegerKernelsTemplate.h"
#pragma clang attribute pop
#endif
