/*
 * 2x2 max pooling, one vector kernel target (see VectorKernelsTemplate.h).
 * A window cell outside the input repeats an inside one (Darknet ignores it), so the edge
 * columns and rows clamp.
 */
static void CAT(swiftdarknet_maxpool2x2_, SUFFIX)(const float *input, ptrdiff_t channels, ptrdiff_t height,
                                                  ptrdiff_t width, ptrdiff_t stride, float *output,
                                                  ptrdiff_t out_height, ptrdiff_t out_width) {
    /* Output columns whose window lies inside the row, with both vector loads in bounds. */
    const ptrdiff_t inside = width >= 2 ? (width - 2) / stride + 1 : 0;
    for (ptrdiff_t c = 0; c < channels; c++) {
        const float *plane = input + c * height * width;
        float *out_plane = output + c * out_height * out_width;
        for (ptrdiff_t oy = 0; oy < out_height; oy++) {
            const ptrdiff_t y0 = oy * stride;
            const float *row0 = plane + y0 * width;
            const float *row1 = y0 + 1 < height ? row0 + width : row0;
            float *out = out_plane + oy * out_width;
            ptrdiff_t ox = 0;
            if (stride == 2) {
                for (; ox + LANES <= inside && 2 * ox + 2 * LANES <= width; ox += LANES) {
                    const VEC a = __builtin_elementwise_max(CAT(load_, SUFFIX)(row0 + 2 * ox),
                                                            CAT(load_, SUFFIX)(row1 + 2 * ox));
                    const VEC b = __builtin_elementwise_max(CAT(load_, SUFFIX)(row0 + 2 * ox + LANES),
                                                            CAT(load_, SUFFIX)(row1 + 2 * ox + LANES));
                    const VEC m = __builtin_elementwise_max(__builtin_shufflevector(a, b, EVEN_INDICES),
                                                            __builtin_shufflevector(a, b, ODD_INDICES));
                    __builtin_memcpy(out + ox, &m, sizeof m);
                }
            } else if (stride == 1) {
                for (; ox + LANES <= inside && ox + 1 + LANES <= width; ox += LANES) {
                    const VEC a = __builtin_elementwise_max(CAT(load_, SUFFIX)(row0 + ox), CAT(load_, SUFFIX)(row1 + ox));
                    const VEC b = __builtin_elementwise_max(CAT(load_, SUFFIX)(row0 + ox + 1),
                                                            CAT(load_, SUFFIX)(row1 + ox + 1));
                    const VEC m = __builtin_elementwise_max(a, b);
                    __builtin_memcpy(out + ox, &m, sizeof m);
                }
            }
            for (; ox < out_width; ox++) {
                const ptrdiff_t x = ox * stride;
                const ptrdiff_t x1 = x + 1 < width ? x + 1 : x;
                const float top = row0[x] > row0[x1] ? row0[x] : row0[x1];
                const float bottom = row1[x] > row1[x1] ? row1[x] : row1[x1];
                out[ox] = top > bottom ? top : bottom;
            }
        }
    }
}
