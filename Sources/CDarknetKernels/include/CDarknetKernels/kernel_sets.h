#ifndef SWIFTDARKNET_KERNEL_SETS_H
#define SWIFTDARKNET_KERNEL_SETS_H
/*
 * The kernels compiled for one instruction-set target, gathered in a table. A plan picks one
 * vector set (float convolutions, Winograd, element-wise, pooling, pixel conversion) and, for
 * int8 layers, one integer set (the GEMM's multiply instruction) from the CPU's features; every
 * call goes through the table it picked. Sets of a target this build was not compiled for
 * (another architecture) are NULL. A set must only run on a CPU that supports its target: the
 * Swift side checks that before it hands a set out.
 *
 * The generic targets are written once (generic/, clang vector extensions and plain C) and
 * compiled per target by generic/VectorKernelsTemplate.h and generic/IntegerKernelsTemplate.h;
 * architecture-specific code lives in x86/ and arm/.
 */
#include <stdint.h>

#include "cpu.h"
#include "convolution.h"
#include "elementwise.h"
#include "integer.h"
#include "pixels.h"
#include "winograd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Vector kernel targets. */
enum {
    SWIFTDARKNET_VECTOR_PORTABLE = 0, /* 4 lanes: SSE2 on x86-64, Advanced SIMD on arm64 */
    SWIFTDARKNET_VECTOR_AVX2 = 1,     /* 8 lanes, AVX2 + FMA */
    SWIFTDARKNET_VECTOR_AVX512 = 2,   /* 16 lanes, AVX-512F + FMA */
    SWIFTDARKNET_VECTOR_NEON = 3,     /* 4 lanes, Advanced SIMD, blocked for 32 registers (arm64) */
    SWIFTDARKNET_VECTOR_TARGETS = 4
};

typedef struct {
    const char *_Nonnull name;
    /* The architecture the set is compiled for and the CPU extensions it needs (cpu.h): the
     * Swift side reads them from here. */
    int architecture;
    uint32_t required_extensions;
    /* Floats per vector. */
    int lanes;
    swiftdarknet_convolve_direct_fn *_Nonnull convolve_direct;
    swiftdarknet_convolve_direct_maxpool2_fn *_Nonnull convolve_direct_maxpool2;
    swiftdarknet_convolve_stride2_fn *_Nonnull convolve_stride2;
    swiftdarknet_pointwise_fn *_Nonnull pointwise;
    swiftdarknet_winograd_input_fn *_Nonnull winograd_input;
    swiftdarknet_winograd_output_fn *_Nonnull winograd_output;
    swiftdarknet_winograd_products_tile_major_fn *_Nonnull winograd_products_tile_major;
    swiftdarknet_winograd_output_tile_major_fn *_Nonnull winograd_output_tile_major;
    swiftdarknet_winograd_weights_fn *_Nonnull winograd_weights;
    swiftdarknet_activate_fn *_Nonnull activate;
    swiftdarknet_bias_activate_fn *_Nonnull bias_activate;
    swiftdarknet_weighted_sum_fn *_Nonnull weighted_sum;
    swiftdarknet_copy_even_fn *_Nonnull copy_even;
    swiftdarknet_maxpool2x2_fn *_Nonnull maxpool2x2;
    swiftdarknet_yuv_to_rgb_fn *_Nonnull yuv_to_rgb;
    swiftdarknet_quantize_u8_fn *_Nonnull quantize_u8;
    swiftdarknet_int16_direct_layout_fn *_Nonnull int16_direct_layout;
} swiftdarknet_vector_kernels;

typedef struct {
    const char *_Nonnull name;
    /* The architecture the set is compiled for and the CPU extensions it needs (cpu.h). */
    int architecture;
    uint32_t required_extensions;
    /* Columns of B the variant's tile takes at once (16 per strip). */
    int tile_columns;
    swiftdarknet_int8_gemm_fn *_Nonnull gemm;
    swiftdarknet_int8_direct_fn *_Nonnull direct;
    /* The direct convolution in 16 bits, NULL where the variant has none (AVX2_NARROW). */
    swiftdarknet_int8_direct_fn *_Nullable direct16;
} swiftdarknet_integer_kernels;

/* The vector kernels of `target` (SWIFTDARKNET_VECTOR_*), NULL if this build has none. */
const swiftdarknet_vector_kernels *_Nullable swiftdarknet_vector_kernel_set(int target);

/* The integer kernels of `variant` (SWIFTDARKNET_INT8_*), NULL if this build has none. */
const swiftdarknet_integer_kernels *_Nullable swiftdarknet_integer_kernel_set(int variant);

#ifdef __cplusplus
}
#endif
#endif
