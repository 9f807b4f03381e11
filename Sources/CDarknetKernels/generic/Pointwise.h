/*
 * 1x1 stride-1 convolution by the tile-major product kernel, one instruction-set variant (see
 * VectorKernelsTemplate.h): vectors of 16 positions x a block of filters in registers over every input
 * channel. Positions take the vector lanes so that each filter's outputs come out as a row.
 */
/* See swiftdarknet_pointwise in CDarknetKernels/convolution.h. Positions past `count` in the last block of
 * 16 are zero in `packed`; their products are computed and dropped. The bias and activation are
 * swiftdarknet_bias_activate's arithmetic, so the values are those of that pass run after. */
static void CAT(swiftdarknet_pointwise_, SUFFIX)(const float *weights, const float *input, ptrdiff_t channels,
                                                 ptrdiff_t filters, ptrdiff_t plane, ptrdiff_t first, ptrdiff_t count,
                                                 const float *biases, int activation, float *packed, float *products,
                                                 float *output) {
    const ptrdiff_t padded = (count + 15) / 16 * 16;
    for (ptrdiff_t q = 0; q < padded; q += 16) {
        const ptrdiff_t width = count - q < 16 ? count - q : 16;
        float *block = packed + q * channels;
        const float *source = input + first + q;
        if (width == 16) {
            for (ptrdiff_t c = 0; c < channels; c++) __builtin_memcpy(block + c * 16, source + c * plane, 16 * sizeof(float));
        } else {
            for (ptrdiff_t c = 0; c < channels; c++) {
                for (ptrdiff_t i = 0; i < 16; i++) block[c * 16 + i] = i < width ? source[c * plane + i] : 0.0f;
            }
        }
    }
    CAT(tile_major_products_, SUFFIX)(packed, weights, products, channels, padded, filters, filters,
                                      (const char *)(packed + padded * channels));
    for (ptrdiff_t f = 0; f < filters; f++) {
        float *out = output + f * plane + first;
        if (biases) {
            CAT(bias_activate_row_, SUFFIX)(products + f * padded, out, count, biases[f], activation);
        } else {
            __builtin_memcpy(out, products + f * padded, (size_t)count * sizeof(float));
        }
    }
}
