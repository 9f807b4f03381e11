/*
 * Winograd F(4x4, 3x3) input and output transforms, one instruction-set variant (see Variant.h).
 * Plain loops over contiguous rows that the compiler vectorises at the variant's width; layouts
 * as documented on swiftdarknet_winograd_input.
 */
/* Bᵀ applied to six values (one column or row of a 6x6 tile), the six results to out[i * step]. */
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
            float *restrict t0 = t + 1;
            /* Bᵀ d down each column. */
            for (ptrdiff_t x = 0; x < width; x++)
                CAT(winograd_bt_, SUFFIX)(d0[x], d1[x], d2[x], d3[x], d4[x], d5[x], t0 + x, span);
            /* (Bᵀ d) B along each row of tiles, each of the 36 elements to its own matrix. */
            const ptrdiff_t row_offset = c * tiles + ty * tile_columns;
            for (int k = 0; k < 6; k++) {
                const float *restrict r = t + k * span;
                float *restrict o0 = v + (k * 6) * stride + row_offset;
                for (ptrdiff_t tx = 0; tx < tile_columns; tx++) {
                    const float *e = r + 4 * tx;
                    CAT(winograd_bt_, SUFFIX)(e[0], e[1], e[2], e[3], e[4], e[5], o0 + tx, stride);
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

/* One tile's outputs for a vector of filters, values[(i * n + j) * LANES + lane] for output (i, j)
 * of filter f0 + lane, to the lanes in [lane_begin, lane_end) of `output` (filter f0's plane),
 * clipped to `rows x columns` at the bottom and right edges. */
static inline __attribute__((always_inline)) void CAT(winograd_scatter_tile_, SUFFIX)(
    const float *values, int n, ptrdiff_t lane_begin, ptrdiff_t lane_end, float *output, ptrdiff_t plane,
    ptrdiff_t width, ptrdiff_t oy, ptrdiff_t ox, ptrdiff_t rows, ptrdiff_t columns) {
    for (ptrdiff_t lane = lane_begin; lane < lane_end; lane++) {
        float *destination = output + lane * plane + oy * width + ox;
        for (ptrdiff_t i = 0; i < rows; i++)
            for (ptrdiff_t j = 0; j < columns; j++) destination[i * width + j] = values[(i * n + j) * LANES + lane];
    }
}

/* Aᵀ of F(4x4, 3x3) on six vectors. */
static inline __attribute__((always_inline)) void CAT(winograd_at_, SUFFIX)(VEC a0, VEC a1, VEC a2, VEC a3, VEC a4,
                                                                           VEC a5, VEC *out, int step) {
    const VEC sum12 = a1 + a2, diff12 = a1 - a2, sum34 = a3 + a4, diff34 = a3 - a4;
    out[0] = a0 + sum12 + sum34;
    out[step] = diff12 + CAT(splat_, SUFFIX)(2.0f) * diff34;
    out[2 * step] = sum12 + CAT(splat_, SUFFIX)(4.0f) * sum34;
    out[3 * step] = diff12 + CAT(splat_, SUFFIX)(8.0f) * diff34 + a5;
}

/* The output transform of tile-major products m[element][tile][filter] (element stride
 * tiles * filters_padded), a vector of filters at a time: each tile's 36 products are contiguous
 * per filter vector. */
static void CAT(swiftdarknet_winograd_output_tile_major_, SUFFIX)(
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
            VEC s[4 * 6], y[16];
            for (int j = 0; j < 6; j++)
                CAT(winograd_at_, SUFFIX)(CAT(load_, SUFFIX)(mt + j * stride), CAT(load_, SUFFIX)(mt + (6 + j) * stride),
                                          CAT(load_, SUFFIX)(mt + (12 + j) * stride),
                                          CAT(load_, SUFFIX)(mt + (18 + j) * stride),
                                          CAT(load_, SUFFIX)(mt + (24 + j) * stride),
                                          CAT(load_, SUFFIX)(mt + (30 + j) * stride), s + j, 6);
            for (int i = 0; i < 4; i++)
                CAT(winograd_at_, SUFFIX)(s[i * 6], s[i * 6 + 1], s[i * 6 + 2], s[i * 6 + 3], s[i * 6 + 4],
                                          s[i * 6 + 5], y + i * 4, 1);
            float values[16 * LANES];
            for (int k = 0; k < 16; k++) {
                const VEC x = CAT(finish_, SUFFIX)(y[k] + bias, epilogue);
                __builtin_memcpy(values + k * LANES, &x, sizeof x);
            }
            const ptrdiff_t oy = tile / tile_columns * 4, ox = tile % tile_columns * 4;
            CAT(winograd_scatter_tile_, SUFFIX)(values, 4, lane_begin, lane_end, output + f0 * plane, plane, width,
                                                oy, ox, height - oy < 4 ? height - oy : 4,
                                                width - ox < 4 ? width - ox : 4);
        }
    }
}

/* One block of products: `tb` tiles x `nb` vectors of filters from filter f, summed over every
 * channel. Weights are in blocks of 16 filters: u[(f / 16) * channels * 16 + c * 16 + f % 16].
 * Each channel step also prefetches one cache line at `prefetch + c * 64` into L2 (none when
 * `prefetch` is null): the caller points it at weights a later block will read. */
static inline __attribute__((always_inline)) void CAT(winograd_product_block_, SUFFIX)(
    const float *u, ptrdiff_t f, const float *v, ptrdiff_t channels, ptrdiff_t filters_padded, ptrdiff_t tiles,
    int tb, int nb, float *p, const char *prefetch) {
    VEC acc[WINOGRAD_TILE_BLOCK][WINOGRAD_FILTER_VECTORS];
    const float *w[WINOGRAD_FILTER_VECTORS];
#pragma clang loop unroll(full)
    for (int j = 0; j < nb; j++) {
        const ptrdiff_t filter = f + j * LANES;
        w[j] = u + (filter / 16) * channels * 16 + filter % 16;
    }
#pragma clang loop unroll(full)
    for (int t = 0; t < tb; t++) {
#pragma clang loop unroll(full)
        for (int j = 0; j < nb; j++) acc[t][j] = CAT(splat_, SUFFIX)(0.0f);
    }
    for (ptrdiff_t c = 0; c < channels; c++) {
        if (prefetch) __builtin_prefetch(prefetch + c * 64, 0, 2);
        VEC weights[WINOGRAD_FILTER_VECTORS];
#pragma clang loop unroll(full)
        for (int j = 0; j < nb; j++) weights[j] = CAT(load_, SUFFIX)(w[j] + c * 16);
        const float *column = v + c * tiles;
#pragma clang loop unroll(full)
        for (int t = 0; t < tb; t++) {
            const VEC x = CAT(splat_, SUFFIX)(column[t]);
#pragma clang loop unroll(full)
            for (int j = 0; j < nb; j++) acc[t][j] = acc[t][j] + x * weights[j];
        }
    }
    float *out = p + f;
#pragma clang loop unroll(full)
    for (int t = 0; t < tb; t++) {
#pragma clang loop unroll(full)
        for (int j = 0; j < nb; j++) __builtin_memcpy(out + t * filters_padded + j * LANES, &acc[t][j], sizeof(VEC));
    }
}

/* winograd_product_block with `tb` (1...WINOGRAD_TILE_BLOCK) a constant in each case. */
static inline __attribute__((always_inline)) void CAT(winograd_product_tiles_, SUFFIX)(
    const float *u, ptrdiff_t f, const float *v, ptrdiff_t channels, ptrdiff_t filters_padded, ptrdiff_t tiles,
    int tb, int nb, float *p, const char *prefetch) {
#define WINOGRAD_BLOCK_CASE(n)                                                                                   \
    case n:                                                                                                      \
        if (n <= WINOGRAD_TILE_BLOCK)                                                                            \
            CAT(winograd_product_block_, SUFFIX)(u, f, v, channels, filters_padded, tiles,                       \
                                                 n <= WINOGRAD_TILE_BLOCK ? n : 1, nb, p, prefetch);             \
        return;
    switch (tb) {
        WINOGRAD_BLOCK_CASE(1)
        WINOGRAD_BLOCK_CASE(2)
        WINOGRAD_BLOCK_CASE(3)
        WINOGRAD_BLOCK_CASE(4)
        WINOGRAD_BLOCK_CASE(5)
        WINOGRAD_BLOCK_CASE(6)
        WINOGRAD_BLOCK_CASE(7)
        WINOGRAD_BLOCK_CASE(8)
    }
#undef WINOGRAD_BLOCK_CASE
}

/* Tiles are split into the fewest blocks of at most WINOGRAD_TILE_BLOCK, of near-equal size (49
 * tiles: 7 x 7, not 6 x 8 + 1), so no block runs with too few tiles to hide its loads. For each
 * group of filters the blocks pass over the same weights (from L2 after the first); every pass
 * prefetches a share of the next group's, so the stream from memory spreads over all passes
 * instead of stalling the first. */
static void CAT(swiftdarknet_winograd_products_tile_major_, SUFFIX)(
    const float *u, const float *v, float *p, ptrdiff_t channels, ptrdiff_t filters_padded, ptrdiff_t tiles,
    ptrdiff_t first, ptrdiff_t count) {
    const ptrdiff_t wide = WINOGRAD_FILTER_VECTORS * LANES;
    const ptrdiff_t blocks = (tiles + WINOGRAD_TILE_BLOCK - 1) / WINOGRAD_TILE_BLOCK;
    const char *end = (const char *)(u + (first + count) * channels * filters_padded);
    for (ptrdiff_t e = first; e < first + count; e++) {
        const float *ue = u + e * channels * filters_padded;
        const float *ve = v + e * channels * tiles;
        float *pe = p + e * tiles * filters_padded;
        for (ptrdiff_t f = 0; f < filters_padded;) {
            /* Whole groups of `wide` filters, then single vectors (filters_padded is a multiple of 16). */
            const int nb = f + wide <= filters_padded ? WINOGRAD_FILTER_VECTORS : 1;
            const ptrdiff_t group = nb * LANES;
            /* Filters [f, f + group) are one contiguous run of weights; the next group follows it. */
            const char *next = (const char *)(ue + f * channels + group * channels);
            for (ptrdiff_t b = 0; b < blocks; b++) {
                const ptrdiff_t t = tiles * b / blocks, tb = tiles * (b + 1) / blocks - t;
                const char *prefetch = next + b * channels * 64;
                if (prefetch >= end || b * 64 >= group * 4) prefetch = NULL;
                if (nb == WINOGRAD_FILTER_VECTORS)
                    CAT(winograd_product_tiles_, SUFFIX)(ue, f, ve + t, channels, filters_padded, tiles, (int)tb,
                                                         WINOGRAD_FILTER_VECTORS, pe + t * filters_padded, prefetch);
                else
                    CAT(winograd_product_tiles_, SUFFIX)(ue, f, ve + t, channels, filters_padded, tiles, (int)tb, 1,
                                                         pe + t * filters_padded, prefetch);
            }
            f += group;
        }
    }
}
