/*
 * Direct convolution, one instruction-set variant (see Variant.h).
 * Each block keeps FILTER_BLOCK x VECTOR_BLOCK accumulators in registers: per kernel tap it
 * loads VECTOR_BLOCK input vectors and broadcasts FILTER_BLOCK weights.
 */
/* `fb` filters x `nv` vectors of one output row starting at column x. */
static inline __attribute__((always_inline)) void CAT(block_, SUFFIX)(
    const float *padded, ptrdiff_t channels, ptrdiff_t plane, ptrdiff_t padded_width, const float *weights,
    ptrdiff_t filter_stride, const float *biases, int fb, int nv, ptrdiff_t size, float *out,
    ptrdiff_t out_plane, ptrdiff_t valid, int epilogue) {
    VEC acc[FILTER_BLOCK][VECTOR_BLOCK];
#pragma clang loop unroll(full)
    for (int f = 0; f < fb; f++) {
        const VEC bias = CAT(splat_, SUFFIX)(biases[f]);
#pragma clang loop unroll(full)
        for (int j = 0; j < nv; j++) acc[f][j] = bias;
    }
    for (ptrdiff_t c = 0; c < channels; c++) {
        const float *rows = padded + c * plane;
        const float *w = weights + c * size * size;
        for (ptrdiff_t ky = 0; ky < size; ky++) {
            const float *row = rows + ky * padded_width;
            for (ptrdiff_t kx = 0; kx < size; kx++) {
                VEC in[VECTOR_BLOCK];
#pragma clang loop unroll(full)
                for (int j = 0; j < nv; j++) in[j] = CAT(load_, SUFFIX)(row + kx + j * LANES);
                const ptrdiff_t tap = ky * size + kx;
#pragma clang loop unroll(full)
                for (int f = 0; f < fb; f++) {
                    const VEC wv = CAT(splat_, SUFFIX)(w[f * filter_stride + tap]);
#pragma clang loop unroll(full)
                    for (int j = 0; j < nv; j++) acc[f][j] = acc[f][j] + in[j] * wv;
                }
            }
        }
    }
#pragma clang loop unroll(full)
    for (int f = 0; f < fb; f++) {
#pragma clang loop unroll(full)
        for (int j = 0; j < nv; j++) {
            const VEC y = CAT(finish_, SUFFIX)(acc[f][j], epilogue);
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

static void CAT(swiftdarknet_convolve_direct_, SUFFIX)(
    const float *padded, ptrdiff_t channels, ptrdiff_t padded_height, ptrdiff_t padded_width,
    const float *weights, const float *biases, ptrdiff_t filters, ptrdiff_t size, float *output,
    ptrdiff_t out_height, ptrdiff_t out_width, ptrdiff_t row_begin, ptrdiff_t row_end, int epilogue) {
    const ptrdiff_t plane = padded_height * padded_width;
    const ptrdiff_t out_plane = out_height * out_width;
    const ptrdiff_t filter_stride = channels * size * size;
    const ptrdiff_t wide = VECTOR_BLOCK * LANES;
    for (ptrdiff_t y = row_begin; y < row_end; y++) {
        const float *in_row = padded + y * padded_width;
        float *out_row = output + y * out_width;
        ptrdiff_t f = 0;
        for (; f + FILTER_BLOCK <= filters; f += FILTER_BLOCK) {
            const float *w = weights + f * filter_stride;
            float *o = out_row + f * out_plane;
            ptrdiff_t x = 0;
            for (; x + wide <= out_width; x += wide)
                CAT(block_, SUFFIX)(in_row + x, channels, plane, padded_width, w, filter_stride, biases + f,
                                    FILTER_BLOCK, VECTOR_BLOCK, size, o + x, out_plane, wide, epilogue);
            for (; x < out_width; x += LANES)
                CAT(block_, SUFFIX)(in_row + x, channels, plane, padded_width, w, filter_stride, biases + f,
                                    FILTER_BLOCK, 1, size, o + x, out_plane, out_width - x, epilogue);
        }
        for (; f < filters; f++) {
            const float *w = weights + f * filter_stride;
            float *o = out_row + f * out_plane;
            ptrdiff_t x = 0;
            for (; x + wide <= out_width; x += wide)
                CAT(block_, SUFFIX)(in_row + x, channels, plane, padded_width, w, filter_stride, biases + f,
                                    1, VECTOR_BLOCK, size, o + x, out_plane, wide, epilogue);
            for (; x < out_width; x += LANES)
                CAT(block_, SUFFIX)(in_row + x, channels, plane, padded_width, w, filter_stride, biases + f,
                                    1, 1, size, o + x, out_plane, out_width - x, epilogue);
        }
    }
}
