/*
 * What the int8 GEMM's translation units (Int8Kernels.c, Int16Kernels.c) share before they
 * instantiate the tile, loop-nest and epilogue headers once per instruction set.
 */
#ifndef SWIFTDARKNET_INT8_COMMON_H
#define SWIFTDARKNET_INT8_COMMON_H

#include "darknet_int8.h"

#include <math.h>
#include <stddef.h>

/* One rounding per operation in every variant: no multiply-add fused in one and not another. */
#pragma STDC FP_CONTRACT OFF

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

/* Columns of the widest tile (3 strips), the row stride of every tile buffer. */
#define INT8_TILE_WIDTH 48
/* Packed A per chunk of row blocks: about half of a 1 MiB L2, leaving room for a panel of B. */
#define INT8_CHUNK_BYTES (192 * 1024)

enum { INT8_OUTPUT_S32 = 0, INT8_OUTPUT_F32 = 1, INT8_OUTPUT_U8 = 2 };

/* Logistic, mish and swish over `count` values, in place: compiled once for every variant, so
 * they round the same everywhere; Darknet's formulas (mish's softplus thresholded at 20). */
__attribute__((noinline)) static void int8_activate_scalar(float *y, ptrdiff_t count, int activation) {
    for (ptrdiff_t j = 0; j < count; j++) {
        const float x = y[j];
        switch (activation) {
        case SWIFTDARKNET_INT8_LOGISTIC: y[j] = 1.0f / (1.0f + expf(-x)); break;
        case SWIFTDARKNET_INT8_SWISH: y[j] = x * (1.0f / (1.0f + expf(-x))); break;
        case SWIFTDARKNET_INT8_MISH: {
            const float softplus = x > 20.0f ? x : (x < -20.0f ? expf(x) : logf(expf(x) + 1.0f));
            y[j] = x * (2.0f / (1.0f + expf(-2.0f * softplus)) - 1.0f);
            break;
        }
        default: break;
        }
    }
}
#endif
