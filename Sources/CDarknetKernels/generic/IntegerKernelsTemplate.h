/*
 * The integer kernel set of one variant, written once: a variant's translation unit
 * (generic/IntegerPortable.c, x86/IntegerAVX2.c, ...) sets its target attribute, defines the
 * parameters below, includes this file and gets the table `swiftdarknet_integer_kernels_<SUFFIX>`:
 * the GEMM and the direct convolution with the variant's tile (IntegerGemm.h, IntegerDirect.h)
 * and its epilogue. A translation unit may hold several sets (x86/IntegerAVX2.c has AVX2's and
 * AVX2-narrow's): this file undefines its parameters at its end.
 *
 * Parameters:
 *   SUFFIX             function-name suffix and table name
 *   INT8_TILE          the 8-bit tile: void (const int8_t *a, const uint8_t *b, ptrdiff_t kq,
 *                      int strips, int32_t *tile), 8 rows x strips * 16 columns of int32 sums
 *   INT8_TILE_STRIPS   the strips it takes at once (1 or 3)
 *   INT16_TILE         (optional) the 16-bit tile of the same shape, for the 16-bit direct
 *                      convolution; without it, the set has none
 *   INTEGER_EPILOGUE   (optional) the epilogue header, default "IntegerEpilogue.h"
 */
#include "IntegerCommon.h"
#include "IntegerRound.h"

#include <string.h>

#ifdef INTEGER_EPILOGUE
#include INTEGER_EPILOGUE
#else
#include "IntegerEpilogue.h"
#endif
#include "IntegerGemm.h"

#define DIRECT_NAME CAT(int8_direct_, SUFFIX)
#define DIRECT_TILE INT8_TILE
#include "IntegerDirect.h"

#ifdef INT16_TILE
#define DIRECT_NAME CAT(int16_direct_, SUFFIX)
#define DIRECT_TILE INT16_TILE
#include "IntegerDirect.h"
#endif

const swiftdarknet_integer_kernels CAT(swiftdarknet_integer_kernels_, SUFFIX) = {
    .name = CAT_STRING(SUFFIX),
    .architecture = ARCHITECTURE,
    .required_extensions = REQUIRED_EXTENSIONS,
    .tile_columns = 16 * INT8_TILE_STRIPS,
    .gemm = CAT(int8_gemm_, SUFFIX),
    .direct = CAT(int8_direct_, SUFFIX),
#ifdef INT16_TILE
    .direct16 = CAT(int16_direct_, SUFFIX),
#else
    .direct16 = NULL,
#endif
};

#undef SUFFIX
#undef ARCHITECTURE
#undef REQUIRED_EXTENSIONS
#undef INT8_TILE
#undef INT8_TILE_STRIPS
#undef INT16_TILE
#undef INTEGER_EPILOGUE
