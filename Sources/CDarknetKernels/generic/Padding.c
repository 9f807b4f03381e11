#include "CDarknetKernels/convolution.h"

#include <string.h>

/* Widest vector any kernel set loads past the last output column. */
#define MAX_LANES 16

ptrdiff_t swiftdarknet_direct_padded_width(ptrdiff_t out_width, ptrdiff_t size) {
    return out_width + size - 1 + MAX_LANES;
}

void swiftdarknet_pad_planes(const float *input, ptrdiff_t first, ptrdiff_t count, ptrdiff_t height,
                             ptrdiff_t width, ptrdiff_t pad, float *padded, ptrdiff_t padded_height,
                             ptrdiff_t padded_width) {
    const ptrdiff_t plane = padded_height * padded_width;
    for (ptrdiff_t c = first; c < first + count; c++) {
        float *dst = padded + c * plane;
        const float *src = input + c * height * width;
        memset(dst, 0, sizeof(float) * pad * padded_width);
        for (ptrdiff_t y = 0; y < height; y++) {
            float *row = dst + (y + pad) * padded_width;
            memset(row, 0, sizeof(float) * pad);
            memcpy(row + pad, src + y * width, sizeof(float) * width);
            memset(row + pad + width, 0, sizeof(float) * (padded_width - pad - width));
        }
        ptrdiff_t below = padded_height - pad - height;
        if (below > 0) memset(dst + (pad + height) * padded_width, 0, sizeof(float) * below * padded_width);
    }
}
