/*
 * Winograd F(4x4, 3x3) input and output transforms, one instruction-set variant (see Variant.h).
 * Plain loops over contiguous rows that the compiler vectorises at the variant's width; layouts
 * as documented on swiftdarknet_winograd_input.
 */
static void CAT(swiftdarknet_winograd_input_, SUFFIX)(const float *input, ptrdiff_t channels, ptrdiff_t height,
                                                      ptrdiff_t width, ptrdiff_t tile_rows, ptrdiff_t tile_columns,
                                                      float *v, float *scratch, ptrdiff_t first, ptrdiff_t count) {
    const ptrdiff_t tiles = tile_rows * tile_columns;
    const ptrdiff_t stride = channels * tiles;
    const ptrdiff_t span = 4 * tile_columns + 2;
    float *zero_row = scratch;
    for (ptrdiff_t x = 0; x < width; x++) zero_row[x] = 0;
    float *t = scratch + width;
    for (int k = 0; k < 6; k++) {
        t[k * span] = 0;
        for (ptrdiff_t x = width + 1; x < span; x++) t[k * span + x] = 0;
    }
    for (ptrdiff_t c = first; c < first + count; c++) {
        const float *plane = input + c * height * width;
        for (ptrdiff_t ty = 0; ty < tile_rows; ty++) {
            const float *d[6];
            for (int i = 0; i < 6; i++) {
                const ptrdiff_t y = ty * 4 - 1 + i;
                d[i] = (y >= 0 && y < height) ? plane + y * width : zero_row;
            }
            const float *restrict d0 = d[0], *restrict d1 = d[1], *restrict d2 = d[2];
            const float *restrict d3 = d[3], *restrict d4 = d[4], *restrict d5 = d[5];
            float *restrict t0 = t + 1, *restrict t1 = t0 + span, *restrict t2 = t1 + span;
            float *restrict t3 = t2 + span, *restrict t4 = t3 + span, *restrict t5 = t4 + span;
            /* Bᵀ d down each column. */
            for (ptrdiff_t x = 0; x < width; x++) {
                const float a0 = d0[x], a1 = d1[x], a2 = d2[x], a3 = d3[x], a4 = d4[x], a5 = d5[x];
                t0[x] = 4 * a0 - 5 * a2 + a4;
                t1[x] = -4 * (a1 + a2) + a3 + a4;
                t2[x] = 4 * (a1 - a2) - a3 + a4;
                t3[x] = 2 * (a3 - a1) - a2 + a4;
                t4[x] = 2 * (a1 - a3) - a2 + a4;
                t5[x] = 4 * a1 - 5 * a3 + a5;
            }
            /* (Bᵀ d) B along each row of tiles, each of the 36 elements to its own matrix. */
            const ptrdiff_t row_offset = c * tiles + ty * tile_columns;
            for (int k = 0; k < 6; k++) {
                const float *restrict r = t + k * span;
                float *restrict o0 = v + (k * 6) * stride + row_offset;
                float *restrict o1 = o0 + stride, *restrict o2 = o1 + stride, *restrict o3 = o2 + stride;
                float *restrict o4 = o3 + stride, *restrict o5 = o4 + stride;
                for (ptrdiff_t tx = 0; tx < tile_columns; tx++) {
                    const float *e = r + 4 * tx;
                    const float e0 = e[0], e1 = e[1], e2 = e[2], e3 = e[3], e4 = e[4], e5 = e[5];
                    o0[tx] = 4 * e0 - 5 * e2 + e4;
                    o1[tx] = -4 * (e1 + e2) + e3 + e4;
                    o2[tx] = 4 * (e1 - e2) - e3 + e4;
                    o3[tx] = 2 * (e3 - e1) - e2 + e4;
                    o4[tx] = 2 * (e1 - e3) - e2 + e4;
                    o5[tx] = 4 * e1 - 5 * e3 + e5;
                }
            }
        }
    }
}

static inline __attribute__((always_inline)) float CAT(epilogue_scalar_, SUFFIX)(float x, int epilogue) {
    if (epilogue == SWIFTDARKNET_EPILOGUE_BIAS_LEAKY) return x > 0 ? x : 0.1f * x;
    if (epilogue == SWIFTDARKNET_EPILOGUE_BIAS_RELU) return x > 0 ? x : 0;
    return x;
}

static void CAT(swiftdarknet_winograd_output_, SUFFIX)(const float *m, ptrdiff_t filters, ptrdiff_t height,
                                                       ptrdiff_t width, ptrdiff_t tile_rows, ptrdiff_t tile_columns,
                                                       const float *biases, int epilogue, float *output,
                                                       float *scratch, ptrdiff_t first, ptrdiff_t count) {
    const ptrdiff_t tiles = tile_rows * tile_columns;
    const ptrdiff_t stride = filters * tiles;
    float *s = scratch; /* [4][6][tile_columns]: Aᵀ applied down each column of every tile */
    float *row_values = scratch + 24 * tile_columns; /* one output row, 4 * tile_columns wide */
    for (ptrdiff_t f = first; f < first + count; f++) {
        float *plane = output + f * height * width;
        const float bias = biases[f];
        for (ptrdiff_t ty = 0; ty < tile_rows; ty++) {
            const ptrdiff_t row_offset = f * tiles + ty * tile_columns;
            for (int j = 0; j < 6; j++) {
                const float *restrict m0 = m + j * stride + row_offset;
                const float *restrict m1 = m0 + 6 * stride, *restrict m2 = m1 + 6 * stride;
                const float *restrict m3 = m2 + 6 * stride, *restrict m4 = m3 + 6 * stride;
                const float *restrict m5 = m4 + 6 * stride;
                float *restrict s0 = s + j * tile_columns, *restrict s1 = s0 + 6 * tile_columns;
                float *restrict s2 = s1 + 6 * tile_columns, *restrict s3 = s2 + 6 * tile_columns;
                for (ptrdiff_t tx = 0; tx < tile_columns; tx++) {
                    const float a1 = m1[tx], a2 = m2[tx], a3 = m3[tx], a4 = m4[tx];
                    const float sum12 = a1 + a2, diff12 = a1 - a2, sum34 = a3 + a4, diff34 = a3 - a4;
                    s0[tx] = m0[tx] + sum12 + sum34;
                    s1[tx] = diff12 + 2 * diff34;
                    s2[tx] = sum12 + 4 * sum34;
                    s3[tx] = diff12 + 8 * diff34 + m5[tx];
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
