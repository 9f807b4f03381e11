/*
 * The arm64 integer kernel set without a dot-product instruction (any Advanced SIMD CPU, e.g.
 * Cortex-A72): 8-bit and 16-bit operands widened to int16 and multiplied by smlal
 * (IntegerTileWiden.h), four products per instruction, as many as a float fmla: no faster than
 * float, which the planner knows (IntegerKernels.lacksDotProduct).
 */
#if defined(__aarch64__)
#include "../generic/IntegerCommon.h"

#include "IntegerTileWiden.h"

#define SUFFIX neon
#define ARCHITECTURE SWIFTDARKNET_ARCH_ARM64
#define REQUIRED_EXTENSIONS SWIFTDARKNET_CPU_NEON
#define INT8_TILE int8_tile_neon
#define INT8_TILE_STRIPS 1
#define INT16_TILE int16_tile_neon
#include "../generic/IntegerKernelsTemplate.h"
#endif
