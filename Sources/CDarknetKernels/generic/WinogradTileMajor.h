/*
 * The tile-major Winograd path, one vector kernel target (see VectorKernelsTemplate.h): the element-wise
 * products (shared by F(4x4, 3x3) and F(2x2, 3x3)) and the output transforms of their
 * [element][tile][filter] products, a vector of filters at a time.
 */
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

/* Products p[tile][f] = sum_c v[c * stride + tile] u[c][f] of `tiles` tiles, every filter.
 * Tiles are split into the fewest blocks of at most WINOGRAD_TILE_BLOCK, of near-equal size (49
 * tiles: 7 x 7, not 6 x 8 + 1), so no block runs with too few tiles to hide its loads. For each
 * group of filters the blocks pass over the same weights (from L2 after the first); every pass
 * prefetches a share of the next group's (none at or past `end`), so the stream from memory
 * spreads over all passes instead of stalling the first. */
static inline __attribute__((always_inline)) void CAT(tile_major_products_, SUFFIX)(
    const float *u, const float *v, float *p, ptrdiff_t channels, ptrdiff_t filters_padded, ptrdiff_t stride,
    ptrdiff_t tiles, const char *end) {
    const ptrdiff_t wide = WINOGRAD_FILTER_VECTORS * LANES;
    const ptrdiff_t blocks = (tiles + WINOGRAD_TILE_BLOCK - 1) / WINOGRAD_TILE_BLOCK;
    for (ptrdiff_t f = 0; f < filters_padded;) {
        /* Whole groups of `wide` filters, then single vectors (filters_padded is a multiple of 16). */
        const int nb = f + wide <= filters_padded ? WINOGRAD_FILTER_VECTORS : 1;
        const ptrdiff_t group = nb * LANES;
        /* Filters [f, f + group) are one contiguous run of weights; the next group follows it. */
        const char *next = (const char *)(u + f * channels + group * channels);
        for (ptrdiff_t b = 0; b < blocks; b++) {
            const ptrdiff_t t = tiles * b / blocks, tb = tiles * (b + 1) / blocks - t;
            const char *prefetch = next + b * channels * 64;
            if (prefetch >= end || b * 64 >= group * 4) prefetch = NULL;
            if (nb == WINOGRAD_FILTER_VECTORS)
                CAT(winograd_product_tiles_, SUFFIX)(u, f, v + t, channels, filters_padded, stride, (int)tb,
                                                     WINOGRAD_FILTER_VECTORS, p + t * filters_padded, prefetch);
            else
                CAT(winograd_product_tiles_, SUFFIX)(u, f, v + t, channels, filters_padded, stride, (int)tb, 1,
                                                     p + t * filters_padded, prefetch);
        }
        f += group;
    }
}

static void CAT(swiftdarknet_winograd_products_tile_major_, SUFFIX)(
    const float *u, const float *v, float *p, ptrdiff_t channels, ptrdiff_t filters_padded, ptrdiff_t tiles,
    ptrdiff_t first, ptrdiff_t count) {
    const char *end = (const char *)(u + (first + count) * channels * filters_padded);
    for (ptrdiff_t e = first; e < first + count; e++) {
        CAT(tile_major_products_, SUFFIX)(u + e * channels * filters_padded, v + e * channels * tiles,
                                          p + e * tiles * filters_padded, channels, filters_padded, tiles, tiles, end);
    }
}

/* One tile's outputs for a vector of filters, values[(i * n + j) * LANES + lane] for output (i, j)
 * of filter f0 + lane, to the lanes in [lane_begin, lane_end) of `output` (filter f0's plane),
 * clipped to `rows x columns` at the bottom and right edges; plus `residual`'s value at the same
 * place when it is not NULL (a fused shortcut's source, laid out as `output`). */
static inline __attribute__((always_inline)) void CAT(winograd_scatter_tile_, SUFFIX)(
    const float *values, int n, ptrdiff_t lane_begin, ptrdiff_t lane_end, float *output, const float *residual,
    ptrdiff_t plane, ptrdiff_t width, ptrdiff_t oy, ptrdiff_t ox, ptrdiff_t rows, ptrdiff_t columns) {
    for (ptrdiff_t lane = lane_begin; lane < lane_end; lane++) {
        const ptrdiff_t at = lane * plane + oy * width + ox;
        float *destination = output + at;
        for (ptrdiff_t i = 0; i < rows; i++)
            for (ptrdiff_t j = 0; j < columns; j++) {
                const float value = values[(i * n + j) * LANES + lane];
                destination[i * width + j] = residual ? value + residual[at + i * width + j] : value;
            }
    }
}

#if LANES == 16
/* Lanes (a, b) interleaved within each 128-bit quarter: UNPCKLPS and UNPCKHPS. */
#define WINOGRAD_UNPACK_LOW(a, b) __builtin_shufflevector(a, b, 0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29)
#define WINOGRAD_UNPACK_HIGH(a, b) __builtin_shufflevector(a, b, 2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31)
/* Each quarter's first (second) 64-bit half of a, then of b: SHUFPS 0x44 (0xEE). */
#define WINOGRAD_HALVES_LOW(a, b) __builtin_shufflevector(a, b, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29)
#define WINOGRAD_HALVES_HIGH(a, b) __builtin_shufflevector(a, b, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31)

typedef float CAT(quad_, SUFFIX) __attribute__((vector_size(16), aligned(4)));
typedef float CAT(pair_, SUFFIX) __attribute__((vector_size(8), aligned(4)));

/* The four 128-bit quarters of v. */
static inline __attribute__((always_inline)) void CAT(winograd_quarters_, SUFFIX)(VEC v, CAT(quad_, SUFFIX) *out) {
    out[0] = __builtin_shufflevector(v, v, 0, 1, 2, 3);
    out[1] = __builtin_shufflevector(v, v, 4, 5, 6, 7);
    out[2] = __builtin_shufflevector(v, v, 8, 9, 10, 11);
    out[3] = __builtin_shufflevector(v, v, 12, 13, 14, 15);
}

/* One whole n x n tile's outputs (n = 4, 3 or 2) for all 16 filters of a vector (y[i * n + j]
 * holds output (i, j) of each), transposed in registers so that each filter's row of n outputs is
 * one store (plus `residual`'s row there when it is not NULL): where winograd_scatter_tile_ stores
 * each float alone. */
static inline __attribute__((always_inline)) void CAT(winograd_store_tile_, SUFFIX)(const VEC *y, int n, float *output,
                                                                                  const float *residual, ptrdiff_t plane,
                                                                                  ptrdiff_t width, ptrdiff_t oy,
                                                                                  ptrdiff_t ox) {
    for (int i = 0; i < n; i++) {
        const ptrdiff_t at = (oy + i) * width + ox;
        const VEC *r = y + i * n;
        CAT(quad_, SUFFIX) quarters[4];
        if (n >= 3) {
            /* A row of 3 is transposed as one of 4 whose last column repeats the third; only 3
             * floats of each filter's row are stored. */
            const VEC r3 = n == 4 ? r[3] : r[2];
            const VEC low01 = WINOGRAD_UNPACK_LOW(r[0], r[1]), high01 = WINOGRAD_UNPACK_HIGH(r[0], r[1]);
            const VEC low23 = WINOGRAD_UNPACK_LOW(r[2], r3), high23 = WINOGRAD_UNPACK_HIGH(r[2], r3);
            /* Quarter q of rows[k] holds filter 4q + k's four outputs. */
            const VEC rows[4] = { WINOGRAD_HALVES_LOW(low01, low23), WINOGRAD_HALVES_HIGH(low01, low23),
                                  WINOGRAD_HALVES_LOW(high01, high23), WINOGRAD_HALVES_HIGH(high01, high23) };
            for (int k = 0; k < 4; k++) {
                CAT(winograd_quarters_, SUFFIX)(rows[k], quarters);
                for (int q = 0; q < 4; q++) {
                    const ptrdiff_t offset = at + (4 * q + k) * plane;
                    if (residual) {
                        CAT(quad_, SUFFIX) add = {0};
                        __builtin_memcpy(&add, residual + offset, n * sizeof(float));
                        quarters[q] += add;
                    }
                    __builtin_memcpy(output + offset, &quarters[q], n * sizeof(float));
                }
            }
        } else {
            /* Quarter q of rows[k] holds filter 4q + 2k's two outputs, then filter 4q + 2k + 1's. */
            const VEC rows[2] = { WINOGRAD_UNPACK_LOW(r[0], r[1]), WINOGRAD_UNPACK_HIGH(r[0], r[1]) };
            for (int k = 0; k < 2; k++) {
                CAT(winograd_quarters_, SUFFIX)(rows[k], quarters);
                for (int q = 0; q < 4; q++) {
                    CAT(pair_, SUFFIX) pairs[2] = { __builtin_shufflevector(quarters[q], quarters[q], 0, 1),
                                                    __builtin_shufflevector(quarters[q], quarters[q], 2, 3) };
                    for (int half = 0; half < 2; half++) {
                        const ptrdiff_t offset = at + (4 * q + 2 * k + half) * plane;
                        if (residual) {
                            CAT(pair_, SUFFIX) add;
                            __builtin_memcpy(&add, residual + offset, sizeof add);
                            pairs[half] += add;
                        }
                        __builtin_memcpy(output + offset, &pairs[half], sizeof pairs[half]);
                    }
                }
            }
        }
    }
}
#endif

/* Aᵀ of F(4x4, 3x3) on six vectors. */
static inline __attribute__((always_inline)) void CAT(winograd_at_, SUFFIX)(VEC a0, VEC a1, VEC a2, VEC a3, VEC a4,
                                                                           VEC a5, VEC *out, int step) {
    const VEC sum12 = a1 + a2, diff12 = a1 - a2, sum34 = a3 + a4, diff34 = a3 - a4;
    out[0] = a0 + sum12 + sum34;
    out[step] = diff12 + CAT(splat_, SUFFIX)(2.0f) * diff34;
    out[2 * step] = sum12 + CAT(splat_, SUFFIX)(4.0f) * sum34;
    out[3 * step] = diff12 + CAT(splat_, SUFFIX)(8.0f) * diff34 + a5;
}

/* Aᵀ of F(2x2, 3x3) on four vectors. */
static inline __attribute__((always_inline)) void CAT(winograd_f23_at_, SUFFIX)(VEC a0, VEC a1, VEC a2, VEC a3,
                                                                               VEC *out, int step) {
    out[0] = a0 + a1 + a2;
    out[step] = a1 - a2 - a3;
}

/* Aᵀ of F(3x3, 3x3) (points ±1/2, ±3/2 and infinity: rows [1 1 1 1 0; 1/2 -1/2 3/2 -3/2 0; 1/4 1/4
 * 9/4 9/4 1]) on five vectors. */
static inline __attribute__((always_inline)) void CAT(winograd_f33_at_, SUFFIX)(VEC a0, VEC a1, VEC a2, VEC a3,
                                                                               VEC a4, VEC *out, int step) {
    const VEC sum01 = a0 + a1, diff01 = a0 - a1, sum23 = a2 + a3, diff23 = a2 - a3;
    out[0] = sum01 + sum23;
    out[step] = CAT(splat_, SUFFIX)(0.5f) * diff01 + CAT(splat_, SUFFIX)(1.5f) * diff23;
    out[2 * step] = CAT(splat_, SUFFIX)(0.25f) * sum01 + CAT(splat_, SUFFIX)(2.25f) * sum23 + a4;
}

/* Filters the output transform takes per tile (a block of filter vectors): each tile's products
 * for them are one contiguous run per element, read in order, where a vector of filters at a
 * time over every tile read 64 bytes a tile row apart from each element's products. */
enum { WINOGRAD_OUTPUT_FILTER_BLOCK = 512 };

/* `Aᵀ m A` of tile-major products m[element][tile][filter] (element stride tiles * filters_padded)
 * for n x n output tiles (4: F(4x4, 3x3), 36 elements; 2: F(2x2, 3x3), 16 elements), for each
 * tile a block of filters (WINOGRAD_OUTPUT_FILTER_BLOCK) a vector at a time. The tiles are tile
 * rows [first_row, first_row + tile_rows) of the output. */
static inline __attribute__((always_inline)) void CAT(winograd_output_tile_major_n_, SUFFIX)(
    const float *m, ptrdiff_t filters_padded, ptrdiff_t height, ptrdiff_t width, ptrdiff_t first_row,
    ptrdiff_t tile_rows, ptrdiff_t tile_columns, const float *biases, int epilogue, float *output,
    const float *residual, ptrdiff_t first, ptrdiff_t count, int n) {
    const int t = n + 2; /* input tile size */
    const ptrdiff_t tiles = tile_rows * tile_columns, stride = tiles * filters_padded, plane = height * width;
    enum { BLOCK = WINOGRAD_OUTPUT_FILTER_BLOCK / LANES };
    for (ptrdiff_t block = first / LANES * LANES; block < first + count; block += BLOCK * LANES) {
        const ptrdiff_t block_end = block + BLOCK * LANES < first + count ? block + BLOCK * LANES : first + count;
        /* Per vector of the block: its lanes in [first, first + count), and their biases. */
        ptrdiff_t lane_begin[BLOCK], lane_end[BLOCK];
        VEC bias[BLOCK];
        for (ptrdiff_t f0 = block, v = 0; f0 < block_end; f0 += LANES, v++) {
            lane_begin[v] = first > f0 ? first - f0 : 0;
            lane_end[v] = first + count - f0 < LANES ? first + count - f0 : LANES;
            float bias_lanes[LANES] = {0};
            for (ptrdiff_t lane = lane_begin[v]; lane < lane_end[v]; lane++) bias_lanes[lane] = biases[f0 + lane];
            bias[v] = CAT(load_, SUFFIX)(bias_lanes);
        }
        for (ptrdiff_t tile = 0; tile < tiles; tile++) {
            const ptrdiff_t oy = (first_row + tile / tile_columns) * n, ox = tile % tile_columns * n;
            for (ptrdiff_t f0 = block, v = 0; f0 < block_end; f0 += LANES, v++) {
                const float *mt = m + tile * filters_padded + f0;
                VEC e[36], s[4 * 6], y[16];
                /* Unrolled, so that the elements stay in registers: as a loop, each was stored to the
                 * stack and read back (the transform's time 0.47 -> 0.26 of the bfloat16 GEMM's in an
                 * F(3x3, 3x3) layer). */
#pragma clang loop unroll(full)
                for (int k = 0; k < t * t; k++) e[k] = CAT(load_, SUFFIX)(mt + k * stride);
                /* Aᵀ down each column of the tile, then along each of the n resulting rows. */
#pragma clang loop unroll(full)
                for (int j = 0; j < t; j++) {
                    if (n == 4) CAT(winograd_at_, SUFFIX)(e[j], e[6 + j], e[12 + j], e[18 + j], e[24 + j], e[30 + j], s + j, 6);
                    else if (n == 3) CAT(winograd_f33_at_, SUFFIX)(e[j], e[5 + j], e[10 + j], e[15 + j], e[20 + j], s + j, 5);
                    else CAT(winograd_f23_at_, SUFFIX)(e[j], e[4 + j], e[8 + j], e[12 + j], s + j, 4);
                }
                for (int i = 0; i < n; i++) {
                    const VEC *r = s + i * t;
                    if (n == 4) CAT(winograd_at_, SUFFIX)(r[0], r[1], r[2], r[3], r[4], r[5], y + i * 4, 1);
                    else if (n == 3) CAT(winograd_f33_at_, SUFFIX)(r[0], r[1], r[2], r[3], r[4], y + i * 3, 1);
                    else CAT(winograd_f23_at_, SUFFIX)(r[0], r[1], r[2], r[3], y + i * 2, 1);
                }
                for (int k = 0; k < n * n; k++) y[k] = CAT(finish_, SUFFIX)(y[k] + bias[v], epilogue);
                const ptrdiff_t rows = height - oy < n ? height - oy : n, columns = width - ox < n ? width - ox : n;
#if LANES == 16
                if (lane_begin[v] == 0 && lane_end[v] == LANES && rows == n && columns == n) {
                    CAT(winograd_store_tile_, SUFFIX)(y, n, output + f0 * plane, residual ? residual + f0 * plane : NULL,
                                                      plane, width, oy, ox);
                    continue;
                }
#endif
                float values[16 * LANES];
                for (int k = 0; k < n * n; k++) __builtin_memcpy(values + k * LANES, &y[k], sizeof y[k]);
                CAT(winograd_scatter_tile_, SUFFIX)(values, n, lane_begin[v], lane_end[v], output + f0 * plane,
                                                    residual ? residual + f0 * plane : NULL, plane, width, oy, ox,
                                                    rows, columns);
            }
        }
    }
}

static void CAT(swiftdarknet_winograd_output_tile_major_, SUFFIX)(
    const float *m, ptrdiff_t filters_padded, ptrdiff_t height, ptrdiff_t width, ptrdiff_t first_row,
    ptrdiff_t tile_rows, ptrdiff_t tile_columns, int tile, const float *biases, int epilogue, float *output,
    const float *residual, ptrdiff_t first, ptrdiff_t count) {
    if (tile == 6)
        CAT(winograd_output_tile_major_n_, SUFFIX)(m, filters_padded, height, width, first_row, tile_rows,
                                                   tile_columns, biases, epilogue, output, residual, first, count, 4);
    else if (tile == 5)
        CAT(winograd_output_tile_major_n_, SUFFIX)(m, filters_padded, height, width, first_row, tile_rows,
                                                   tile_columns, biases, epilogue, output, residual, first, count, 3);
    else
        CAT(winograd_output_tile_major_n_, SUFFIX)(m, filters_padded, height, width, first_row, tile_rows,
                                                   tile_columns, biases, epilogue, output, residual, first, count, 2);
}
