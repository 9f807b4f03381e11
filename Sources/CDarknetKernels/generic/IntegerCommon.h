/*
 * What the integer kernel sets' translation units share before they instantiate
 * IntegerKernelsTemplate.h once per variant.
 */
#ifndef SWIFTDARKNET_INTEGER_COMMON_H
#define SWIFTDARKNET_INTEGER_COMMON_H

#include "CDarknetKernels/kernel_sets.h"

#include <math.h>
#include <stddef.h>

/* One rounding per operation in every variant: no multiply-add fused in one and not another. */
#pragma STDC FP_CONTRACT OFF

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define CAT_STRING_(a) #a
#define CAT_STRING(a) CAT_STRING_(a)

/* Columns of the widest tile (3 strips), the row stride of every tile buffer. */
#define INT8_TILE_WIDTH 48
/* Packed A per chunk of row blocks: about half of a 1 MiB L2, leaving room for a panel of B. */
#define INT8_CHUNK_BYTES (192 * 1024)

enum {
    INT8_OUTPUT_S32 = SWIFTDARKNET_INT8_OUTPUT_S32,
    INT8_OUTPUT_F32 = SWIFTDARKNET_INT8_OUTPUT_F32,
    INT8_OUTPUT_U8 = SWIFTDARKNET_INT8_OUTPUT_U8
};

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
