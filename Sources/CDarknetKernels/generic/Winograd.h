/*
 * Winograd input transforms (F(4x4, 3x3) and F(2x2, 3x3)) and the 36-GEMM path's output transform, one
 * instruction-set variant (see VectorKernelsTemplate.h); the tile-major path is in WinogradTileMajor.h.
 * Plain loops over contiguous rows that the compiler vectorises at the variant's width; layouts
 * as documented on swiftdarknet_winograd_input.
 */
/* Bᵀ of F(4x4, 3x3) applied to six values (one column or row of a 6x6 tile), the six results to
 * out[i * step]. */
static inline __attribute__((always_inline)) void CAT(winograd_bt_, SUFFIX)(float a0, float a1, float a2, float a3,
                                                                           float a4, float a5, float *out,
                                                                           ptrdiff_t step) {
    out[0] = 4 * a0 - 5 * a2 + a4;
    out[step] = -4 * (a1 + a2) + a3 + a4;
    out[2 * step] = 4 * (a1 - a2) - a3 + a4;
    out[3 * step] = 2 * (a3 - a1) - a2 + a4;
    out[4 * step] = 2 * (a1 - a3) - a2 + a4;
    out[5 * step] = 4 * a1 - 5 * a3 + a5;
}

/* Bᵀ of F(2x2, 3x3) applied to four values (one column or row of a 4x4 tile). */
static inline __attribute__((always_inline)) void CAT(winograd_f23_bt_, SUFFIX)(float a0, float a1, float a2,
                                                                               float a3, float *out,
                                                                               ptrdiff_t step) {
    out[0] = a0 - a2;
    out[step] = a1 + a2;
    out[2 * step] = a2 - a1;
    out[3 * step] = a1 - a3;
}

/* Bᵀ of F(3x3, 3x3) (points ±1/2, ±3/2 and infinity) applied to five values (one column or row
 * of a 5x5 tile): rows [-9/8 -9/4 1/2 1 0; 9/8 -9/4 -1/2 1 0; -3/8 -1/4 3/2 1 0; 3/8 -1/4 -3/2 1 0;
 * 9/16 0 -5/2 0 1], each pair of rows a sum and a difference. */
static inline __attribute__((always_inline)) void CAT(winograd_f33_bt_, SUFFIX)(float a0, float a1, float a2,
                                                                               float a3, float a4, float *out,
                                                                               ptrdiff_t step) {
    const float even01 = a3 - 2.25f * a1, odd01 = 1.125f * a0 - 0.5f * a2;
    const float even23 = a3 - 0.25f * a1, odd23 = 0.375f * a0 - 1.5f * a2;
    out[0] = even01 - odd01;
    out[step] = even01 + odd01;
    out[2 * step] = even23 - odd23;
    out[3 * step] = even23 + odd23;
    out[4 * step] = 0.5625f * a0 - 2.5f * a2 + a4;
}

/* The input transform for t x t input tiles (t = 6: F(4x4, 3x3); t = 5: F(3x3, 3x3); t = 4:
 * F(2x2, 3x3)), each n = t - 2 outputs apart; inlined with a constant t, so each size gets its
 * own loops. */
static inline __attribute__((always_inline)) void CAT(winograd_input_t_, SUFFIX)(
    const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width, ptrdiff_t first_row,
    ptrdiff_t tile_rows, ptrdiff_t tile_columns, int t, float *v, float *scratch, ptrdiff_t first, ptrdiff_t count) {
    const int n = t - 2;
    const ptrdiff_t tiles = tile_rows * tile_columns;
    const ptrdiff_t stride = channels * tiles;
    const ptrdiff_t span = n * tile_columns + 2;
    float *zero_row = scratch;
    for (ptrdiff_t x = 0; x < width; x++) zero_row[x] = 0;
    float *t_rows = scratch + width;
    for (int k = 0; k < t; k++) {
        t_rows[k * span] = 0;
        for (ptrdiff_t x = width + 1; x < span; x++) t_rows[k * span + x] = 0;
    }
    for (ptrdiff_t c = first; c < first + count; c++) {
        const float *plane = input + c * height * width;
        for (ptrdiff_t ty = 0; ty < tile_rows; ty++) {
            const float *d[6];
            for (int i = 0; i < t; i++) {
                const ptrdiff_t y = (first_row + ty) * n - 1 + i;
                d[i] = (y >= 0 && y < height) ? plane + y * width : zero_row;
            }
            float *restrict t0 = t_rows + 1;
            /* Bᵀ d down each column. */
            for (ptrdiff_t x = 0; x < width; x++) {
                if (t == 6)
                    CAT(winograd_bt_, SUFFIX)(d[0][x], d[1][x], d[2][x], d[3][x], d[4][x], d[5][x], t0 + x, span);
                else if (t == 5) CAT(winograd_f33_bt_, SUFFIX)(d[0][x], d[1][x], d[2][x], d[3][x], d[4][x], t0 + x, span);
                else CAT(winograd_f23_bt_, SUFFIX)(d[0][x], d[1][x], d[2][x], d[3][x], t0 + x, span);
            }
            /* (Bᵀ d) B along each row of tiles, each of the t * t elements to its own matrix. */
            const ptrdiff_t row_offset = c * tiles + ty * tile_columns;
            for (int k = 0; k < t; k++) {
                const float *restrict r = t_rows + k * span;
                float *restrict o0 = v + (k * t) * stride + row_offset;
                for (ptrdiff_t tx = 0; tx < tile_columns; tx++) {
                    const float *e = r + n * tx;
                    if (t == 6) CAT(winograd_bt_, SUFFIX)(e[0], e[1], e[2], e[3], e[4], e[5], o0 + tx, stride);
                    else if (t == 5) CAT(winograd_f33_bt_, SUFFIX)(e[0], e[1], e[2], e[3], e[4], o0 + tx, stride);
                    else CAT(winograd_f23_bt_, SUFFIX)(e[0], e[1], e[2], e[3], o0 + tx, stride);
                }
            }
        }
    }
}

static void CAT(swiftdarknet_winograd_input_, SUFFIX)(const float *input, ptrdiff_t channels, ptrdiff_t height,
                                                      ptrdiff_t width, ptrdiff_t first_row, ptrdiff_t tile_rows,
                                                      ptrdiff_t tile_columns, int tile, float *v, float *scratch,
                                                      ptrdiff_t first, ptrdiff_t count) {
    if (tile == 6)
        CAT(winograd_input_t_, SUFFIX)(input, channels, height, width, first_row, tile_rows, tile_columns, 6, v,
                                       scratch, first, count);
    else if (tile == 5)
        CAT(winograd_input_t_, SUFFIX)(input, channels, height, width, first_row, tile_rows, tile_columns, 5, v,
                                       scratch, first, count);
    else
        CAT(winograd_input_t_, SUFFIX)(input, channels, height, width, first_row, tile_rows, tile_columns, 4, v,
                                       scratch, first, count);
}

static inline __attribute__((always_inline)) float CAT(epilogue_scalar_, SUFFIX)(float x, int epilogue) {
    if (epilogue == SWIFTDARKNET_EPILOGUE_BIAS_LEAKY) return x > 0 ? x : 0.1f * x;
    if (epilogue == SWIFTDARKNET_EPILOGUE_BIAS_RELU) return x > 0 ? x : 0;
    return x;
}

/* Products at m[element * stride + filter * filter_stride + tile * tile_stride]. */
static inline __attribute__((always_inline)) void CAT(winograd_output_, SUFFIX)(
    const float *m, ptrdiff_t stride, ptrdiff_t filter_stride, ptrdiff_t tile_stride, ptrdiff_t height,
    ptrdiff_t width, ptrdiff_t tile_rows, ptrdiff_t tile_columns, const float *biases, int epilogue, float *output,
    float *scratch, ptrdiff_t first, ptrdiff_t count) {
    float *s = scratch; /* [4][6][tile_columns]: Aᵀ applied down each column of every tile */
    float *row_values = scratch + 24 * tile_columns; /* one output row, 4 * tile_columns wide */
    for (ptrdiff_t f = first; f < first + count; f++) {
        float *plane = output + f * height * width;
        const float bias = biases[f];
        for (ptrdiff_t ty = 0; ty < tile_rows; ty++) {
            const ptrdiff_t row_offset = f * filter_stride + ty * tile_columns * tile_stride;
            for (int j = 0; j < 6; j++) {
                const float *restrict m0 = m + j * stride + row_offset;
                const float *restrict m1 = m0 + 6 * stride, *restrict m2 = m1 + 6 * stride;
                const float *restrict m3 = m2 + 6 * stride, *restrict m4 = m3 + 6 * stride;
                const float *restrict m5 = m4 + 6 * stride;
                float *restrict s0 = s + j * tile_columns, *restrict s1 = s0 + 6 * tile_columns;
                float *restrict s2 = s1 + 6 * tile_columns, *restrict s3 = s2 + 6 * tile_columns;
                for (ptrdiff_t tx = 0; tx < tile_columns; tx++) {
                    const ptrdiff_t at = tx * tile_stride;
                    const float a1 = m1[at], a2 = m2[at], a3 = m3[at], a4 = m4[at];
                    const float sum12 = a1 + a2, diff12 = a1 - a2, sum34 = a3 + a4, diff34 = a3 - a4;
                    s0[tx] = m0[at] + sum12 + sum34;
                    s1[tx] = diff12 + 2 * diff34;
                    s2[tx] = sum12 + 4 * sum34;
                    s3[tx] = diff12 + 8 * diff34 + m5[at];
                }
            }
            const ptrdiff_t oy = ty * 4;
            const ptrdiff_t rows = height - oy < 4 ? height - oy : 4;
            for (ptrdiff_t i = 0; i < rows; i++) {
                const float *restrict r = s + i * 6 * tile_columns;
                float *restrict values = row_values;
                for (ptrdiff_t tx = 0; tx < tile_columns; tx++) {
                    const float a0 = r[tx], a1 = r[tile_columns + tx], a2 = r[2 * tile_columns + tx];
                    const float a3 = r[3 * tile_columns + tx], a4 = r[4 * tile_columns + tx];
                    const float a5 = r[5 * tile_columns + tx];
                    const float sum12 = a1 + a2, diff12 = a1 - a2, sum34 = a3 + a4, diff34 = a3 - a4;
                    values[4 * tx] = a0 + sum12 + sum34;
                    values[4 * tx + 1] = diff12 + 2 * diff34;
                    values[4 * tx + 2] = sum12 + 4 * sum34;
                    values[4 * tx + 3] = diff12 + 8 * diff34 + a5;
                }
                float *restrict destination = plane + (oy + i) * width;
                for (ptrdiff_t x = 0; x < width; x++)
                    destination[x] = CAT(epilogue_scalar_, SUFFIX)(values[x] + bias, epilogue);
            }
        }
    }
}

static void CAT(swiftdarknet_winograd_output_, SUFFIX)(const float *m, ptrdiff_t filters, ptrdiff_t height,
                                                       ptrdiff_t width, ptrdiff_t tile_rows, ptrdiff_t tile_columns,
                                                       const float *biases, int epilogue, float *output,
                                                       float *scratch, ptrdiff_t first, ptrdiff_t count) {
    const ptrdiff_t tiles = tile_rows * tile_columns;
    CAT(winograd_output_, SUFFIX)(m, filters * tiles, tiles, 1, height, width, tile_rows, tile_columns, biases,
                                  epilogue, output, scratch, first, count);
}
