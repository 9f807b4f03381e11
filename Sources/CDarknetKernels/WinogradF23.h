/*
 * Winograd F(2x2, 3x3) input and output transforms for the tile-major path, one instruction-set
 * variant (see Variant.h). Each 2x2 block of output comes from a 4x4 input tile; layouts as
 * documented on swiftdarknet_winograd_f23_input. The element-wise products are the shared
 * swiftdarknet_winograd_products_tile_major over 16 elements.
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
                                                          ptrdiff_t width, ptrdiff_t tile_rows,
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
                const ptrdiff_t y = ty * 2 - 1 + i;
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

/* Aᵀ of F(2x2, 3x3) on four vectors. */
static inline __attribute__((always_inline)) void CAT(winograd_f23_at_, SUFFIX)(VEC a0, VEC a1, VEC a2, VEC a3,
                                                                               VEC *out, int step) {
    out[0] = a0 + a1 + a2;
    out[step] = a1 - a2 - a3;
}

/* `Aᵀ m A` of tile-major products m[element][tile][filter] (element stride tiles * filters_padded),
 * a vector of filters at a time: each tile's 16 products are contiguous per filter vector. */
static void CAT(swiftdarknet_winograd_f23_output_tile_major_, SUFFIX)(
    const float *m, ptrdiff_t filters_padded, ptrdiff_t height, ptrdiff_t width, ptrdiff_t tile_rows,
    ptrdiff_t tile_columns, const float *biases, int epilogue, float *output, ptrdiff_t first, ptrdiff_t count) {
    const ptrdiff_t tiles = tile_rows * tile_columns, stride = tiles * filters_padded, plane = height * width;
    for (ptrdiff_t f0 = first / LANES * LANES; f0 < first + count; f0 += LANES) {
        const ptrdiff_t lane_begin = first > f0 ? first - f0 : 0;
        const ptrdiff_t lane_end = first + count - f0 < LANES ? first + count - f0 : LANES;
        float bias_lanes[LANES] = {0};
        for (ptrdiff_t lane = lane_begin; lane < lane_end; lane++) bias_lanes[lane] = biases[f0 + lane];
        const VEC bias = CAT(load_, SUFFIX)(bias_lanes);
        for (ptrdiff_t tile = 0; tile < tiles; tile++) {
            const float *mt = m + tile * filters_padded + f0;
            VEC s[2 * 4], y[4];
            for (int j = 0; j < 4; j++)
                CAT(winograd_f23_at_, SUFFIX)(CAT(load_, SUFFIX)(mt + j * stride),
                                              CAT(load_, SUFFIX)(mt + (4 + j) * stride),
                                              CAT(load_, SUFFIX)(mt + (8 + j) * stride),
                                              CAT(load_, SUFFIX)(mt + (12 + j) * stride), s + j, 4);
            for (int i = 0; i < 2; i++)
                CAT(winograd_f23_at_, SUFFIX)(s[i * 4], s[i * 4 + 1], s[i * 4 + 2], s[i * 4 + 3], y + i * 2, 1);
            float values[4 * LANES];
            for (int k = 0; k < 4; k++) {
                const VEC x = CAT(finish_, SUFFIX)(y[k] + bias, epilogue);
                __builtin_memcpy(values + k * LANES, &x, sizeof x);
            }
            const ptrdiff_t oy = tile / tile_columns * 2, ox = tile % tile_columns * 2;
            CAT(winograd_scatter_tile_, SUFFIX)(values, 2, lane_begin, lane_end, output + f0 * plane, plane, width,
                                                oy, ox, height - oy < 2 ? height - oy : 2,
                                                width - ox < 2 ? width - ox : 2);
        }
    }
}
