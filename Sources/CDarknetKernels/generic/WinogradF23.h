/*
 * Winograd F(2x2, 3x3) input transform, one vector kernel target (see VectorKernelsTemplate.h). Each 2x2
 * block of output comes from a 4x4 input tile; layouts as documented on
 * swiftdarknet_winograd_f23_input. Products and output transform: WinogradTileMajor.h.
 */
/* Bᵀ applied to four values (one column or row of a 4x4 tile), the four results to out[i * step]. */
static inline __attribute__((always_inline)) void CAT(winograd_f23_bt_, SUFFIX)(float a0, float a1, float a2,
                                                                               float a3, float *out,
                                                                               ptrdiff_t step) {
    out[0] = a0 - a2;
    out[step] = a1 + a2;
    out[2 * step] = a2 - a1;
    out[3 * step] = a1 - a3;
}

static void CAT(swiftdarknet_winograd_f23_input_, SUFFIX)(const float *input, ptrdiff_t channels, ptrdiff_t height,
                                                          ptrdiff_t width, ptrdiff_t first_row, ptrdiff_t tile_rows,
                                                          ptrdiff_t tile_columns, float *v, float *scratch,
                                                          ptrdiff_t first, ptrdiff_t count) {
    const ptrdiff_t tiles = tile_rows * tile_columns;
    const ptrdiff_t stride = channels * tiles;
    const ptrdiff_t span = 2 * tile_columns + 2;
    float *zero_row = scratch;
    for (ptrdiff_t x = 0; x < width; x++) zero_row[x] = 0;
    float *t = scratch + width;
    for (int k = 0; k < 4; k++) {
        t[k * span] = 0;
        for (ptrdiff_t x = width + 1; x < span; x++) t[k * span + x] = 0;
    }
    for (ptrdiff_t c = first; c < first + count; c++) {
        const float *plane = input + c * height * width;
        for (ptrdiff_t ty = 0; ty < tile_rows; ty++) {
            const float *d[4];
            for (int i = 0; i < 4; i++) {
                const ptrdiff_t y = (first_row + ty) * 2 - 1 + i;
                d[i] = (y >= 0 && y < height) ? plane + y * width : zero_row;
            }
            const float *restrict d0 = d[0], *restrict d1 = d[1], *restrict d2 = d[2], *restrict d3 = d[3];
            float *restrict t0 = t + 1;
            /* Bᵀ d down each column. */
            for (ptrdiff_t x = 0; x < width; x++)
                CAT(winograd_f23_bt_, SUFFIX)(d0[x], d1[x], d2[x], d3[x], t0 + x, span);
            /* (Bᵀ d) B along each row of tiles, each of the 16 elements to its own matrix. */
            const ptrdiff_t row_offset = c * tiles + ty * tile_columns;
            for (int k = 0; k < 4; k++) {
                const float *restrict r = t + k * span;
                float *restrict o0 = v + (k * 4) * stride + row_offset;
                for (ptrdiff_t tx = 0; tx < tile_columns; tx++) {
                    const float *e = r + 2 * tx;
                    CAT(winograd_f23_bt_, SUFFIX)(e[0], e[1], e[2], e[3], o0 + tx, stride);
                }
            }
        }
    }
}
