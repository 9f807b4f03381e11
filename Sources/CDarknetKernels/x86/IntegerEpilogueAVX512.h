/*
 * The int8 GEMM's epilogue for the AVX-512 VNNI variant (IntegerKernelsTemplate.h's SUFFIX): the
 * same operations in the same order as generic/IntegerEpilogue.h's loops, written 16 lanes at a time
 * with a masked last step, so a tile's row piece of any width is vector code (the generic loops
 * compile to 8 lanes and a scalar tail), and linear, leaky and ReLU go from the sums to the
 * float or 8-bit output in registers. Other activations take the generic path's shared scalar
 * function between a vector first pass and the codes (RoundAVX512.h's int8_u8_codes16).
 */
#include "RoundAVX512.h"

static inline __attribute__((always_inline)) __mmask16 int8_lanes(ptrdiff_t left) {
    return left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1u);
}

/* activation(y) for the fused ones: y > 0 ? y : 0.1f * y (leaky), y > 0 ? y : 0 (ReLU). */
static inline __attribute__((always_inline)) __m512 int8_activate16(__m512 y, int activation) {
    const __mmask16 not_positive = _mm512_cmp_ps_mask(y, _mm512_setzero_ps(), _CMP_NGT_UQ);
    if (activation == SWIFTDARKNET_INT8_LEAKY) return _mm512_mask_mul_ps(y, not_positive, y, _mm512_set1_ps(0.1f));
    if (activation == SWIFTDARKNET_INT8_RELU) return _mm512_mask_mov_ps(y, not_positive, _mm512_setzero_ps());
    return y;
}

static inline __attribute__((always_inline)) void CAT(int8_store_, SUFFIX)(
    const int32_t *tile, ptrdiff_t rows, ptrdiff_t first, ptrdiff_t count, ptrdiff_t row0, int kind,
    const swiftdarknet_int8_epilogue *epilogue, void *c, ptrdiff_t ldc, ptrdiff_t column0) {
    if (kind == INT8_OUTPUT_S32) {
        for (ptrdiff_t r = 0; r < rows; r++)
            memcpy((int32_t *)c + (row0 + r) * ldc + column0, tile + r * INT8_TILE_WIDTH + first,
                   (size_t)count * sizeof(int32_t));
        return;
    }
    const int activation = epilogue->activation;
    const int fused = activation == SWIFTDARKNET_INT8_LINEAR || activation == SWIFTDARKNET_INT8_LEAKY ||
                      activation == SWIFTDARKNET_INT8_RELU;
    const __m512 inverse = _mm512_set1_ps(kind == INT8_OUTPUT_U8 ? 1.0f / epilogue->output_scale : 1.0f);
    const __m512 zero = _mm512_set1_ps(kind == INT8_OUTPUT_U8 ? (float)epilogue->output_zero_point : 0.0f);
    for (ptrdiff_t r = 0; r < rows; r++) {
        const int32_t *sums = tile + r * INT8_TILE_WIDTH + first;
        const ptrdiff_t m = row0 + r;
        const __m512i compensation = _mm512_set1_epi32(epilogue->compensation ? epilogue->compensation[m] : 0);
        const __m512 scale = _mm512_set1_ps(epilogue->scale[m]);
        const __m512 bias = _mm512_set1_ps(epilogue->bias ? epilogue->bias[m] : 0.0f);
        float row[INT8_TILE_WIDTH] __attribute__((aligned(64)));
        float *const y = kind == INT8_OUTPUT_F32 ? (float *)c + m * ldc + column0 : row;
        uint8_t *const out = (uint8_t *)c + m * ldc + column0;
        for (ptrdiff_t j = 0; j < count; j += 16) {
            const __mmask16 lanes = int8_lanes(count - j);
            const __m512i sum = _mm512_maskz_loadu_epi32(lanes, sums + j);
            __m512 v = _mm512_cvtepi32_ps(_mm512_sub_epi32(sum, compensation));
            v = _mm512_add_ps(_mm512_mul_ps(v, scale), bias);
            if (!fused) {
                _mm512_mask_storeu_ps(y + j, lanes, v);
                continue;
            }
            v = int8_activate16(v, activation);
            if (kind == INT8_OUTPUT_F32)
                _mm512_mask_storeu_ps(y + j, lanes, v);
            else
                _mm512_mask_cvtepi32_storeu_epi8(out + j, lanes, int8_u8_codes16(v, inverse, zero));
        }
        if (fused) continue;
        int8_activate_scalar(y, count, activation);
        if (kind == INT8_OUTPUT_F32) continue;
        for (ptrdiff_t j = 0; j < count; j += 16) {
            const __mmask16 lanes = int8_lanes(count - j);
            const __m512 v = _mm512_maskz_loadu_ps(lanes, y + j);
            _mm512_mask_cvtepi32_storeu_epi8(out + j, lanes, int8_u8_codes16(v, inverse, zero));
        }
    }
}
