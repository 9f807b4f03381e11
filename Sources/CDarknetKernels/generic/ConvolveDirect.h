/*
 * Direct convolution, one vector kernel target (see VectorKernelsTemplate.h).
 * Each block keeps FILTER_BLOCK x VECTOR_BLOCK accumulators in registers: per kernel tap it
 * loads VECTOR_BLOCK input vectors and broadcasts FILTER_BLOCK weights. Where a tap's input row
 * starts is given by a table, so one block serves both layouts: stride 1 reads zero-padded planes,
 * stride 2 a band of rows split into even and odd columns.
 */
/* `fb` filters x `nv` vectors of one output row starting at `input`: tap t of channel c reads
 * input + c * plane + taps[t]. The sums start from the biases, or with `partial` from what `out`
 * holds (the sums over earlier channels); with `partial_out` they are stored as they are, without
 * the epilogue, for later channels to add to. */
static inline __attribute__((always_inline)) void CAT(block_, SUFFIX)(
    const float *input, ptrdiff_t channels, ptrdiff_t plane, const ptrdiff_t *taps, ptrdiff_t tap_count,
    const float *weights, ptrdiff_t filter_stride, const float *biases, int fb, int nv, float *out,
    ptrdiff_t out_plane, ptrdiff_t valid, int epilogue, int partial, int partial_out) {
    VEC acc[FILTER_BLOCK][VECTOR_BLOCK];
#pragma clang loop unroll(full)
    for (int f = 0; f < fb; f++) {
        const VEC bias = CAT(splat_, SUFFIX)(biases[f]);
#pragma clang loop unroll(full)
        for (int j = 0; j < nv; j++) {
            if (!partial) {
                acc[f][j] = bias;
                continue;
            }
            const float *src = out + f * out_plane + j * LANES;
            const ptrdiff_t lanes = valid - j * LANES;
            if (lanes >= LANES) {
                acc[f][j] = CAT(load_, SUFFIX)(src);
            } else {
                float lane_values[LANES] = {0};
                for (ptrdiff_t i = 0; i < lanes; i++) lane_values[i] = src[i];
                acc[f][j] = CAT(load_, SUFFIX)(lane_values);
            }
        }
    }
    for (ptrdiff_t c = 0; c < channels; c++) {
        const float *rows = input + c * plane;
        const float *w = weights + c * tap_count;
        for (ptrdiff_t tap = 0; tap < tap_count; tap++) {
            const float *row = rows + taps[tap];
            VEC in[VECTOR_BLOCK];
#pragma clang loop unroll(full)
            for (int j = 0; j < nv; j++) in[j] = CAT(load_, SUFFIX)(row + j * LANES);
#pragma clang loop unroll(full)
            for (int f = 0; f < fb; f++) {
                VEC wv = CAT(splat_, SUFFIX)(w[f * filter_stride + tap]);
#if PIN_WEIGHT_BROADCAST
                /* Materialised where it is used, so that the compiler is less inclined to load
                 * the next filters' weights early and keep several broadcasts live at once. */
                KEEP_IN_REGISTER(wv);
#endif
#pragma clang loop unroll(full)
                for (int j = 0; j < nv; j++) acc[f][j] = acc[f][j] + in[j] * wv;
            }
        }
    }
#pragma clang loop unroll(full)
    for (int f = 0; f < fb; f++) {
#pragma clang loop unroll(full)
        for (int j = 0; j < nv; j++) {
            const VEC y = partial_out ? acc[f][j] : CAT(finish_, SUFFIX)(acc[f][j], epilogue);
            float *dst = out + f * out_plane + j * LANES;
            const ptrdiff_t lanes = valid - j * LANES;
            if (lanes >= LANES) {
                __builtin_memcpy(dst, &y, sizeof y);
            } else {
                float lane_values[LANES];
                __builtin_memcpy(lane_values, &y, sizeof y);
                for (ptrdiff_t i = 0; i < lanes; i++) dst[i] = lane_values[i];
            }
        }
    }
}

/* Every filter over `nv` vectors starting at `input` and `out`, `valid` of their values kept. */
static inline __attribute__((always_inline)) void CAT(filters_, SUFFIX)(
    const float *input, ptrdiff_t channels, ptrdiff_t plane, const ptrdiff_t *taps, ptrdiff_t tap_count,
    const float *weights, ptrdiff_t filter_stride, const float *biases, ptrdiff_t filters, int nv, float *out,
    ptrdiff_t out_plane, ptrdiff_t valid, int epilogue, int partial, int partial_out) {
    ptrdiff_t f = 0;
    for (; f + FILTER_BLOCK <= filters; f += FILTER_BLOCK)
        CAT(block_, SUFFIX)(input, channels, plane, taps, tap_count, weights + f * filter_stride, filter_stride,
                            biases + f, FILTER_BLOCK, nv, out + f * out_plane, out_plane, valid, epilogue, partial,
                            partial_out);
    for (; f < filters; f++)
        CAT(block_, SUFFIX)(input, channels, plane, taps, tap_count, weights + f * filter_stride, filter_stride,
                            biases + f, 1, nv, out + f * out_plane, out_plane, valid, epilogue, partial, partial_out);
}

/* One output row (reading its window from `in_row`) for every filter, over `channels` channels
 * (the first of them at `in_row` and `weights`; flags as for the block): blocks of up to
 * VECTOR_BLOCK vectors, filters innermost so the block's window stays in L1 across them. */
static inline __attribute__((always_inline)) void CAT(direct_row_, SUFFIX)(
    const float *in_row, ptrdiff_t channels, ptrdiff_t plane, const ptrdiff_t *taps, ptrdiff_t tap_count,
    const float *weights, ptrdiff_t filter_stride, const float *biases, ptrdiff_t filters, float *out_row,
    ptrdiff_t out_plane, ptrdiff_t out_width, int epilogue, int partial, int partial_out) {
    const ptrdiff_t wide = VECTOR_BLOCK * LANES;
    for (ptrdiff_t x = 0; x < out_width; x += wide) {
        const ptrdiff_t valid = out_width - x < wide ? out_width - x : wide;
        const ptrdiff_t vectors = (valid + LANES - 1) / LANES;
#define ROW_BLOCK(nv)                                                                                               \
    CAT(filters_, SUFFIX)(in_row + x, channels, plane, taps, tap_count, weights, filter_stride, biases, filters, nv, \
                          out_row + x, out_plane, valid, epilogue, partial, partial_out)
        if (vectors == VECTOR_BLOCK) ROW_BLOCK(VECTOR_BLOCK);
#if VECTOR_BLOCK > 2
        else if (vectors == 2) ROW_BLOCK(2);
#endif
        else ROW_BLOCK(1);
#undef ROW_BLOCK
    }
}

/* Where each tap of a size x size window starts in zero-padded planes `padded_width` wide. */
static inline void CAT(padded_taps_, SUFFIX)(ptrdiff_t *taps, ptrdiff_t size, ptrdiff_t padded_width) {
    for (ptrdiff_t ky = 0; ky < size; ky++)
        for (ptrdiff_t kx = 0; kx < size; kx++) taps[ky * size + kx] = ky * padded_width + kx;
}

static void CAT(swiftdarknet_convolve_direct_, SUFFIX)(
    const float *padded, ptrdiff_t channels, ptrdiff_t padded_height, ptrdiff_t padded_width,
    const float *weights, const float *biases, ptrdiff_t filters, ptrdiff_t size, float *output,
    ptrdiff_t out_height, ptrdiff_t out_width, ptrdiff_t row_begin, ptrdiff_t row_end, int epilogue) {
    ptrdiff_t taps[SWIFTDARKNET_DIRECT_MAX_SIZE * SWIFTDARKNET_DIRECT_MAX_SIZE];
    CAT(padded_taps_, SUFFIX)(taps, size, padded_width);
    const ptrdiff_t out_plane = out_height * out_width;
    for (ptrdiff_t y = row_begin; y < row_end; y++)
        CAT(direct_row_, SUFFIX)(padded + y * padded_width, channels, padded_height * padded_width, taps, size * size,
                                 weights, channels * size * size, biases, filters, output + y * out_width, out_plane,
                                 out_width, epilogue, 0, 0);
}

/* Columns of one row of a block pair below: a block's columns plus slack for whole-vector reads. */
#define POOL_PAIR_STRIDE (VECTOR_BLOCK * LANES + 2 * LANES)

/* Output rows y and y + 1 of filters [0, fb) (from `weights`, `biases`), `nv` vectors from column x
 * (`valid` of them kept, an even count), into a pair of rows on the stack; then their 2x2/2 maxima
 * to `pooled` (this filter's plane, at the pooled row and column x / 2). */
static inline __attribute__((always_inline)) void CAT(pooled_block_, SUFFIX)(
    const float *in_row, ptrdiff_t channels, ptrdiff_t plane, ptrdiff_t padded_width, const ptrdiff_t *taps,
    ptrdiff_t tap_count, const float *weights, ptrdiff_t filter_stride, const float *biases, int fb, int nv,
    ptrdiff_t valid, float *pooled, ptrdiff_t pool_plane, int epilogue) {
    float pair[2][FILTER_BLOCK][POOL_PAIR_STRIDE];
#pragma clang loop unroll(full)
    for (int r = 0; r < 2; r++)
        CAT(block_, SUFFIX)(in_row + r * padded_width, channels, plane, taps, tap_count, weights, filter_stride, biases,
                            fb, nv, &pair[r][0][0], POOL_PAIR_STRIDE, valid, epilogue, 0, 0);
    const ptrdiff_t half = valid / 2;
    for (int f = 0; f < fb; f++) {
        const float *top = pair[0][f], *bottom = pair[1][f];
        for (ptrdiff_t k = 0; k < half; k += LANES) {
            const VEC a = __builtin_elementwise_max(CAT(load_, SUFFIX)(top + 2 * k), CAT(load_, SUFFIX)(bottom + 2 * k));
            const VEC b = __builtin_elementwise_max(CAT(load_, SUFFIX)(top + 2 * k + LANES),
                                                    CAT(load_, SUFFIX)(bottom + 2 * k + LANES));
            const VEC m = __builtin_elementwise_max(__builtin_shufflevector(a, b, EVEN_INDICES),
                                                    __builtin_shufflevector(a, b, ODD_INDICES));
            float *dst = pooled + f * pool_plane + k;
            if (half - k >= LANES) {
                __builtin_memcpy(dst, &m, sizeof m);
            } else {
                float lane_values[LANES];
                __builtin_memcpy(lane_values, &m, sizeof m);
                for (ptrdiff_t i = 0; i < half - k; i++) dst[i] = lane_values[i];
            }
        }
    }
}

static void CAT(swiftdarknet_convolve_direct_maxpool2_, SUFFIX)(
    const float *padded, ptrdiff_t channels, ptrdiff_t padded_height, ptrdiff_t padded_width,
    const float *weights, const float *biases, ptrdiff_t filters, ptrdiff_t size, float *pooled,
    ptrdiff_t out_height, ptrdiff_t out_width, ptrdiff_t pooled_begin, ptrdiff_t pooled_end, int epilogue) {
    ptrdiff_t taps[SWIFTDARKNET_DIRECT_MAX_SIZE * SWIFTDARKNET_DIRECT_MAX_SIZE];
    CAT(padded_taps_, SUFFIX)(taps, size, padded_width);
    const ptrdiff_t plane = padded_height * padded_width, filter_stride = channels * size * size;
    const ptrdiff_t pool_width = out_width / 2, pool_plane = (out_height / 2) * pool_width;
    const ptrdiff_t wide = VECTOR_BLOCK * LANES;
    for (ptrdiff_t py = pooled_begin; py < pooled_end; py++) {
        const float *in_row = padded + 2 * py * padded_width;
        float *out_row = pooled + py * pool_width;
        for (ptrdiff_t x = 0; x < out_width; x += wide) {
            const ptrdiff_t valid = out_width - x < wide ? out_width - x : wide;
            const ptrdiff_t vectors = (valid + LANES - 1) / LANES;
            ptrdiff_t f = 0;
#define POOLED_BLOCK(fb, nv)                                                                                       \
    CAT(pooled_block_, SUFFIX)(in_row + x, channels, plane, padded_width, taps, size * size,                      \
                               weights + f * filter_stride, filter_stride, biases + f, fb, nv, valid,              \
                               out_row + f * pool_plane + x / 2, pool_plane, epilogue)
#define POOLED_FILTERS(nv)                                                                                         \
    for (f = 0; f + FILTER_BLOCK <= filters; f += FILTER_BLOCK) POOLED_BLOCK(FILTER_BLOCK, nv);                    \
    for (; f < filters; f++) POOLED_BLOCK(1, nv);
            if (vectors == VECTOR_BLOCK) {
                POOLED_FILTERS(VECTOR_BLOCK)
            }
#if VECTOR_BLOCK > 2
            else if (vectors == 2) {
                POOLED_FILTERS(2)
            }
#endif
            else {
                POOLED_FILTERS(1)
            }
#undef POOLED_FILTERS
#undef POOLED_BLOCK
        }
    }
}

/* Splits padded row `row` of one channel (input row row - pad, zero outside) into its `half`
 * even columns at `even` and `half` odd ones at `odd`: even[j] is padded column 2j, input
 * column 2j - pad. */
static inline void CAT(deinterleave_row_, SUFFIX)(const float *plane, ptrdiff_t height, ptrdiff_t width,
                                                  ptrdiff_t pad, ptrdiff_t row, ptrdiff_t half, float *even,
                                                  float *odd) {
    const ptrdiff_t y = row - pad;
    if (y < 0 || y >= height) {
        memset(even, 0, sizeof(float) * half);
        memset(odd, 0, sizeof(float) * half);
        return;
    }
    const float *src = plane + y * width;
    ptrdiff_t j = 0;
    for (; j < half && 2 * j - pad < 0; j++) {
        even[j] = 0;
        odd[j] = 2 * j + 1 - pad >= 0 && 2 * j + 1 - pad < width ? src[2 * j + 1 - pad] : 0;
    }
    for (; j + LANES <= half && 2 * j - pad + 2 * LANES <= width; j += LANES) {
        const float *pair = src + 2 * j - pad;
        const VEC a = CAT(load_, SUFFIX)(pair), b = CAT(load_, SUFFIX)(pair + LANES);
        const VEC e = __builtin_shufflevector(a, b, EVEN_INDICES), o = __builtin_shufflevector(a, b, ODD_INDICES);
        __builtin_memcpy(even + j, &e, sizeof e);
        __builtin_memcpy(odd + j, &o, sizeof o);
    }
    for (; j < half; j++) {
        even[j] = 2 * j - pad < width ? src[2 * j - pad] : 0;
        odd[j] = 2 * j + 1 - pad < width ? src[2 * j + 1 - pad] : 0;
    }
}

/* Channels summed per pass over a band: their window rows for one block of outputs stay in L1
 * while every filter runs over them (16 and 8 ran alike on YOLOv3's 3x3/2 layers, 4 slower). */
#ifndef STRIDE2_CHANNEL_CHUNK
#define STRIDE2_CHANNEL_CHUNK 16
#endif

static void CAT(swiftdarknet_convolve_stride2_, SUFFIX)(
    const float *input, ptrdiff_t channels, ptrdiff_t height, ptrdiff_t width, ptrdiff_t pad,
    const float *weights, const float *biases, ptrdiff_t filters, ptrdiff_t size, float *output,
    ptrdiff_t out_height, ptrdiff_t out_width, ptrdiff_t row_begin, ptrdiff_t row_end, ptrdiff_t band_rows,
    float *band, int epilogue) {
    const ptrdiff_t half = swiftdarknet_stride2_half_width(out_width, size);
    const ptrdiff_t band_height = 2 * (band_rows - 1) + size;
    const ptrdiff_t plane = band_height * 2 * half;
    ptrdiff_t taps[SWIFTDARKNET_DIRECT_MAX_SIZE * SWIFTDARKNET_DIRECT_MAX_SIZE];
    for (ptrdiff_t ky = 0; ky < size; ky++)
        for (ptrdiff_t kx = 0; kx < size; kx++) taps[ky * size + kx] = ky * 2 * half + (kx & 1) * half + kx / 2;
    const ptrdiff_t out_plane = out_height * out_width;
    for (ptrdiff_t first = row_begin; first < row_end; first += band_rows) {
        const ptrdiff_t rows = row_end - first < band_rows ? row_end - first : band_rows;
        const ptrdiff_t input_rows = 2 * (rows - 1) + size;
        for (ptrdiff_t c = 0; c < channels; c++)
            for (ptrdiff_t r = 0; r < input_rows; r++) {
                float *even = band + c * plane + r * 2 * half;
                CAT(deinterleave_row_, SUFFIX)(input + c * height * width, height, width, pad, 2 * first + r, half,
                                               even, even + half);
            }
        for (ptrdiff_t c = 0; c < channels; c += STRIDE2_CHANNEL_CHUNK) {
            const ptrdiff_t count = channels - c < STRIDE2_CHANNEL_CHUNK ? channels - c : STRIDE2_CHANNEL_CHUNK;
            for (ptrdiff_t y = 0; y < rows; y++)
                CAT(direct_row_, SUFFIX)(band + c * plane + 2 * y * 2 * half, count, plane, taps, size * size,
                                         weights + c * size * size, channels * size * size, biases, filters,
                                         output + (first + y) * out_width, out_plane, out_width, epilogue, c > 0,
                                         c + count < channels);
        }
    }
}
