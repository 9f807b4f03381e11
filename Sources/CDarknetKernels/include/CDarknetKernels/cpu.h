#ifndef SWIFTDARKNET_CPU_H
#define SWIFTDARKNET_CPU_H
/*
 * What the running CPU can execute, read once from the processor (x86: CPUID through clang's
 * builtins; arm64 Linux: the auxiliary vector's HWCAP bits; Apple: sysctl). The Swift side turns
 * these bits into its CPUFeatures value, which the planner takes as an input.
 */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    SWIFTDARKNET_ARCH_OTHER = 0,
    SWIFTDARKNET_ARCH_X86_64 = 1,
    SWIFTDARKNET_ARCH_ARM64 = 2
};

/* Instruction-set extensions, as bits of swiftdarknet_cpu_extensions(). */
enum {
    /* x86-64 */
    SWIFTDARKNET_CPU_AVX2 = 1 << 0,
    SWIFTDARKNET_CPU_FMA = 1 << 1,
    SWIFTDARKNET_CPU_AVX512F = 1 << 2,
    SWIFTDARKNET_CPU_AVX512BW = 1 << 3,
    SWIFTDARKNET_CPU_AVX512DQ = 1 << 4,
    SWIFTDARKNET_CPU_AVX512VL = 1 << 5,
    SWIFTDARKNET_CPU_AVX512VNNI = 1 << 6,
    SWIFTDARKNET_CPU_AVXVNNI = 1 << 7,
    SWIFTDARKNET_CPU_AVX512BF16 = 1 << 8,   /* vdpbf16ps, vcvtne2ps2bf16 (AVX512_BF16) */
    SWIFTDARKNET_CPU_AVX512FP16 = 1 << 9,   /* half-precision arithmetic (AVX512_FP16) */
    /* arm64 */
    SWIFTDARKNET_CPU_NEON = 1 << 16,        /* Advanced SIMD (every arm64 CPU) */
    SWIFTDARKNET_CPU_DOTPROD = 1 << 17,     /* SDOT/UDOT (ARMv8.2 FEAT_DotProd) */
    SWIFTDARKNET_CPU_I8MM = 1 << 18,        /* SMMLA/USMMLA (ARMv8.6 FEAT_I8MM) */
    SWIFTDARKNET_CPU_SVE = 1 << 19,
    SWIFTDARKNET_CPU_FP16 = 1 << 20,        /* half-precision arithmetic (FEAT_FP16) */
    SWIFTDARKNET_CPU_BF16 = 1 << 21,        /* BFDOT/BFMMLA (ARMv8.6 FEAT_BF16) */
    SWIFTDARKNET_CPU_FHM = 1 << 22          /* FMLAL/FMLAL2: half products into float32 (FEAT_FHM) */
};

/* The architecture this library was compiled for (SWIFTDARKNET_ARCH_*). */
int swiftdarknet_cpu_architecture(void);

/* The extensions the running CPU (and its operating system) supports, SWIFTDARKNET_CPU_* bits. */
uint32_t swiftdarknet_cpu_extensions(void);

/* Bytes of the level-2 cache one core of the running CPU has (its own, or its share when the
   cache is shared), or 0 when the operating system does not say. */
int64_t swiftdarknet_cpu_l2_cache_bytes(void);

#ifdef __cplusplus
}
#endif
#endif
