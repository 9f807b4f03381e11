/*
 * The portable integer kernel set: plain C tiles, the reference every other variant reproduces
 * bit for bit, and what runs on a CPU without a faster variant.
 */
#include "IntegerCommon.h"
#include "IntegerTiles.h"

#define SUFFIX portable
#define ARCHITECTURE SWIFTDARKNET_ARCH_OTHER
#define REQUIRED_EXTENSIONS 0
#define INT8_TILE int8_tile_portable
#define INT8_TILE_STRIPS 1
#define INT16_TILE int16_tile_portable
#include "IntegerKernelsTemplate.h"
