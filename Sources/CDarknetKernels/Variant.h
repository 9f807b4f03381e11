/*
 * Every kernel body, compiled once per instruction set: Kernels.c defines LANES (floats per
 * vector), FILTER_BLOCK and VECTOR_BLOCK (the direct convolution's register block), SUFFIX (the
 * function-name suffix) and the shuffle index lists, then includes this file.
 */
#include "Vector.h"
#include "ConvolveDirect.h"
#include "Maxpool.h"
#include "Winograd.h"
#include "WinogradF23.h"
#include "WinogradTileMajor.h"
#include "WinogradWeights.h"
#include "Elementwise.h"
#include "Pointwise.h"
#include "YUV.h"

#undef VEC
#undef CAT
#undef CAT_
#undef LANES
#undef FILTER_BLOCK
#undef VECTOR_BLOCK
#undef SUFFIX
#undef SPLAT_INDICES
#undef EVEN_INDICES
#undef ODD_INDICES
#undef WINOGRAD_TILE_BLOCK
#undef WINOGRAD_FILTER_VECTORS
#undef POOL_PAIR_STRIDE
