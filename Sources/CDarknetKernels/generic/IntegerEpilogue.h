/*
 * The int8 GEMM's epilogue for one variant (IntegerKernelsTemplate.h's SUFFIX): a
 * finished tile of int32 sums to raw int32, float, or requantized uint8 output. Plain loops the
 * compiler vectorises for the variant's target; with contraction off every variant rounds the
 * same way, and the transcendental activations share one scalar function.
 */
static inline __attribute__((always_inline)) void CAT(int8_store_, SUFFIX)(
    const int32_t *tile, ptrdiff_t rows, ptrdiff_t first, ptrdiff_t count, ptrdiff_t row0, int kind,
    const swiftdarknet_int8_epilogue *epilogue, void *c, ptrdiff_t ldc, ptrdiff_t column0) {
    for (ptrdiff_t r = 0; r < rows; r++) {
        const int32_t *sums = tile + r * INT8_TILE_WIDTH + first;
        const ptrdiff_t m = row0 + r;
        if (kind == INT8_OUTPUT_S32) {
            memcpy((int32_t *)c + m * ldc + column0, sums, (size_t)count * sizeof(int32_t));
            continue;
        }
        const int32_t compensation = epilogue->compensation ? epilogue->compensation[m] : 0;
        const float scale = epilogue->scale[m], bias = epilogue->bias ? epilogue->bias[m] : 0.0f;
        /* Float output is computed in place; codes go through a row of floats first. */
        float row[INT8_TILE_WIDTH];
        float *const y = kind == INT8_OUTPUT_F32 ? (float *)c + m * ldc + column0 : row;
        for (ptrdiff_t j = 0; j < count; j++) y[j] = (float)(sums[j] - compensation) * scale + bias;
        switch (epilogue->activation) {
        case SWIFTDARKNET_INT8_LINEAR: break;
        case SWIFTDARKNET_INT8_LEAKY:
            for (ptrdiff_t j = 0; j < count; j++) y[j] = y[j] > 0.0f ? y[j] : 0.1f * y[j];
            break;
        case SWIFTDARKNET_INT8_RELU:
            for (ptrdiff_t j = 0; j < count; j++) y[j] = y[j] > 0.0f ? y[j] : 0.0f;
            break;
        default: int8_activate_scalar(y, count, epilogue->activation); break;
        }
        if (kind == INT8_OUTPUT_F32) continue;
        uint8_t *out = (uint8_t *)c + m * ldc + column0;
        const float inverse = 1.0f / epilogue->output_scale, zero = (float)epilogue->output_zero_point;
        for (ptrdiff_t j = 0; j < count; j++) out[j] = int8_u8_code(y[j] * inverse, zero);
    }
}
