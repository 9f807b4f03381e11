/*
 * The x86-64 CPU's extensions, from CPUID through clang's builtins (which also check that the
 * operating system saves the wider registers).
 */
#if defined(__x86_64__)
#include "CDarknetKernels/cpu.h"

int swiftdarknet_cpu_architecture(void) { return SWIFTDARKNET_ARCH_X86_64; }

uint32_t swiftdarknet_cpu_extensions(void) {
    __builtin_cpu_init();
    uint32_t bits = 0;
    if (__builtin_cpu_supports("avx2")) bits |= SWIFTDARKNET_CPU_AVX2;
    if (__builtin_cpu_supports("fma")) bits |= SWIFTDARKNET_CPU_FMA;
    if (__builtin_cpu_supports("avx512f")) bits |= SWIFTDARKNET_CPU_AVX512F;
    if (__builtin_cpu_supports("avx512bw")) bits |= SWIFTDARKNET_CPU_AVX512BW;
    if (__builtin_cpu_supports("avx512dq")) bits |= SWIFTDARKNET_CPU_AVX512DQ;
    if (__builtin_cpu_supports("avx512vl")) bits |= SWIFTDARKNET_CPU_AVX512VL;
    if (__builtin_cpu_supports("avx512vnni")) bits |= SWIFTDARKNET_CPU_AVX512VNNI;
    if (__builtin_cpu_supports("avxvnni")) bits |= SWIFTDARKNET_CPU_AVXVNNI;
    if (__builtin_cpu_supports("avx512bf16")) bits |= SWIFTDARKNET_CPU_AVX512BF16;
    if (__builtin_cpu_supports("avx512fp16")) bits |= SWIFTDARKNET_CPU_AVX512FP16;
    return bits;
}
#endif
