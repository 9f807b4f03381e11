/*
 * The registry of compiled kernel sets: every target's table, by its number.
 */
#include "CDarknetKernels/kernel_sets.h"
#include "CDarknetKernels/reduced.h"

#include <stddef.h>

extern const swiftdarknet_vector_kernels swiftdarknet_vector_kernels_portable;
extern const swiftdarknet_integer_kernels swiftdarknet_integer_kernels_portable;
extern const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_portable;
extern const swiftdarknet_bf16_kernels swiftdarknet_fp16_kernels_portable;
extern const swiftdarknet_bf16_kernels swiftdarknet_fp16_kernels_portable_half_sums;
/* Compiled on every architecture (their functions trap off their own), so plans for that
 * architecture's CPUs name them. */
extern const swiftdarknet_bf16_kernels swiftdarknet_fp16_kernels_fhm;
extern const swiftdarknet_bf16_kernels swiftdarknet_fp16_kernels_fmla;
extern const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_avx512;
extern const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_bfdot;
extern const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_bfmmla;
extern const swiftdarknet_bf16_kernels swiftdarknet_bf16_kernels_portable_arm;
#if defined(__x86_64__)
extern const swiftdarknet_vector_kernels swiftdarknet_vector_kernels_avx2;
extern const swiftdarknet_vector_kernels swiftdarknet_vector_kernels_avx512;
extern const swiftdarknet_integer_kernels swiftdarknet_integer_kernels_avx2;
extern const swiftdarknet_integer_kernels swiftdarknet_integer_kernels_avx2_narrow;
extern const swiftdarknet_integer_kernels swiftdarknet_integer_kernels_avx_vnni;
extern const swiftdarknet_integer_kernels swiftdarknet_integer_kernels_avx_vnni_evex;
extern const swiftdarknet_integer_kernels swiftdarknet_integer_kernels_avx512_vnni;
#endif
#if defined(__aarch64__)
extern const swiftdarknet_integer_kernels swiftdarknet_integer_kernels_neon;
extern const swiftdarknet_integer_kernels swiftdarknet_integer_kernels_dotprod;
extern const swiftdarknet_integer_kernels swiftdarknet_integer_kernels_i8mm;
extern const swiftdarknet_vector_kernels swiftdarknet_vector_kernels_neon;
#endif

const swiftdarknet_vector_kernels *swiftdarknet_vector_kernel_set(int target) {
    switch (target) {
    case SWIFTDARKNET_VECTOR_PORTABLE: return &swiftdarknet_vector_kernels_portable;
#if defined(__x86_64__)
    case SWIFTDARKNET_VECTOR_AVX2: return &swiftdarknet_vector_kernels_avx2;
    case SWIFTDARKNET_VECTOR_AVX512: return &swiftdarknet_vector_kernels_avx512;
#endif
#if defined(__aarch64__)
    case SWIFTDARKNET_VECTOR_NEON: return &swiftdarknet_vector_kernels_neon;
#endif
    default: return NULL;
    }
}

const swiftdarknet_integer_kernels *swiftdarknet_integer_kernel_set(int variant) {
    switch (variant) {
    case SWIFTDARKNET_INT8_PORTABLE: return &swiftdarknet_integer_kernels_portable;
#if defined(__x86_64__)
    case SWIFTDARKNET_INT8_AVX2: return &swiftdarknet_integer_kernels_avx2;
    case SWIFTDARKNET_INT8_AVX2_NARROW: return &swiftdarknet_integer_kernels_avx2_narrow;
    case SWIFTDARKNET_INT8_AVX_VNNI: return &swiftdarknet_integer_kernels_avx_vnni;
    case SWIFTDARKNET_INT8_AVX_VNNI_EVEX: return &swiftdarknet_integer_kernels_avx_vnni_evex;
    case SWIFTDARKNET_INT8_AVX512_VNNI: return &swiftdarknet_integer_kernels_avx512_vnni;
#endif
#if defined(__aarch64__)
    case SWIFTDARKNET_INT8_NEON: return &swiftdarknet_integer_kernels_neon;
    case SWIFTDARKNET_INT8_DOTPROD: return &swiftdarknet_integer_kernels_dotprod;
    case SWIFTDARKNET_INT8_I8MM: return &swiftdarknet_integer_kernels_i8mm;
#endif
    default: return NULL;
    }
}

const swiftdarknet_bf16_kernels *swiftdarknet_bf16_kernel_set(int target) {
    switch (target) {
    case SWIFTDARKNET_BF16_PORTABLE: return &swiftdarknet_bf16_kernels_portable;
    case SWIFTDARKNET_FP16_PORTABLE: return &swiftdarknet_fp16_kernels_portable;
    case SWIFTDARKNET_FP16_FHM: return &swiftdarknet_fp16_kernels_fhm;
    case SWIFTDARKNET_FP16_PORTABLE_HALF_SUMS: return &swiftdarknet_fp16_kernels_portable_half_sums;
    case SWIFTDARKNET_FP16_FMLA: return &swiftdarknet_fp16_kernels_fmla;
    case SWIFTDARKNET_BF16_AVX512: return &swiftdarknet_bf16_kernels_avx512;
    case SWIFTDARKNET_BF16_PORTABLE_ARM: return &swiftdarknet_bf16_kernels_portable_arm;
    case SWIFTDARKNET_BF16_BFDOT: return &swiftdarknet_bf16_kernels_bfdot;
    case SWIFTDARKNET_BF16_BFMMLA: return &swiftdarknet_bf16_kernels_bfmmla;
    default: return NULL;
    }
}
