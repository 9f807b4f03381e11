/*
 * The vector kernel set of one instruction-set target, written once: a target's translation
 * unit (generic/VectorPortable.c, x86/VectorAVX2.c, x86/VectorAVX512.c, ...) defines the
 * parameters below, sets its target attribute, includes this file once and gets the table
 * `swiftdarknet_vector_kernels_<SUFFIX>`. This is the only place the kernel bodies are
 * instantiated several times; each target is its own translation unit, so nothing is undefined
 * in between.
 *
 * Parameters:
 *   SUFFIX                   function-name suffix (portable, avx2, avx512)
 *   LANES                    floats per vector
 *   FILTER_BLOCK, VECTOR_BLOCK          the direct convolution's register block
 *   PIN_WEIGHT_BROADCAST (optional)     1 (default): each weight's broadcast is materialised
 *                            in a vector register where it is used (KEEP_IN_REGISTER), against
 *                            spills on 16-register x86; 0 leaves the compiler free to multiply
 *                            by a loaded scalar's lane (aarch64's fmla by element)
 *   WINOGRAD_TILE_BLOCK, WINOGRAD_FILTER_VECTORS   the tile-major product kernel's block
 *   SPLAT_INDICES, EVEN_INDICES, ODD_INDICES       shuffle index lists for LANES lanes
 *   QUANTIZE_U8, INT16_DIRECT_LAYOUT (optional)    the target's own quantizer and 16-bit
 *                            layout; default: the portable ones (PortableEntries.h)
 */
#include "CDarknetKernels/kernel_sets.h"

#include <stdint.h>
#include <string.h>

#ifndef PIN_WEIGHT_BROADCAST
#define PIN_WEIGHT_BROADCAST 1
#endif

#include "PortableEntries.h"
#include "../support/Primitives.h"
#include "Vector.h"
#include "ConvolveDirect.h"
#include "Maxpool.h"
#include "Winograd.h"
#include "WinogradTileMajor.h"
#include "WinogradWeights.h"
#include "Elementwise.h"
#include "Pointwise.h"
#include "YUV.h"

#ifndef QUANTIZE_U8
#define QUANTIZE_U8 swiftdarknet_quantize_u8_portable
#endif
#ifndef INT16_DIRECT_LAYOUT
#define INT16_DIRECT_LAYOUT swiftdarknet_int16_direct_layout_portable
#endif

const swiftdarknet_vector_kernels CAT(swiftdarknet_vector_kernels_, SUFFIX) = {
    .name = CAT_STRING(SUFFIX),
    .architecture = ARCHITECTURE,
    .required_extensions = REQUIRED_EXTENSIONS,
    .lanes = LANES,
    .convolve_direct = CAT(swiftdarknet_convolve_direct_, SUFFIX),
    .convolve_direct_maxpool2 = CAT(swiftdarknet_convolve_direct_maxpool2_, SUFFIX),
    .convolve_stride2 = CAT(swiftdarknet_convolve_stride2_, SUFFIX),
    .pointwise = CAT(swiftdarknet_pointwise_, SUFFIX),
    .winograd_input = CAT(swiftdarknet_winograd_input_, SUFFIX),
    .winograd_output = CAT(swiftdarknet_winograd_output_, SUFFIX),
    .winograd_products_tile_major = CAT(swiftdarknet_winograd_products_tile_major_, SUFFIX),
    .winograd_output_tile_major = CAT(swiftdarknet_winograd_output_tile_major_, SUFFIX),
    .winograd_weights = CAT(swiftdarknet_winograd_weights_, SUFFIX),
    .activate = CAT(swiftdarknet_activate_, SUFFIX),
    .bias_activate = CAT(swiftdarknet_bias_activate_, SUFFIX),
    .weighted_sum = CAT(swiftdarknet_weighted_sum_, SUFFIX),
    .copy_even = CAT(swiftdarknet_copy_even_, SUFFIX),
    .maxpool2x2 = CAT(swiftdarknet_maxpool2x2_, SUFFIX),
    .yuv_to_rgb = CAT(swiftdarknet_yuv_to_rgb_, SUFFIX),
    .quantize_u8 = QUANTIZE_U8,
    .int16_direct_layout = INT16_DIRECT_LAYOUT,
};
