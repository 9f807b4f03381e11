/*
 * The arm64 CPU's extensions: on Linux from the auxiliary vector's HWCAP words (the kernel sets
 * a bit only where it also supports the extension), on Apple platforms from sysctl's
 * hw.optional.arm.FEAT_* keys.
 */
#if defined(__aarch64__)
#include "CDarknetKernels/cpu.h"

#if defined(__APPLE__)
#include <sys/sysctl.h>

static int apple_feature(const char *name) {
    int value = 0;
    size_t size = sizeof value;
    return sysctlbyname(name, &value, &size, NULL, 0) == 0 && value != 0;
}
#elif defined(__linux__)
#include <sys/auxv.h>
/* Linux's arm64 hwcap bits (asm/hwcap.h), spelled out for older C libraries. */
#define LINUX_HWCAP_ASIMD (1UL << 1)
#define LINUX_HWCAP_ASIMDHP (1UL << 10)
#define LINUX_HWCAP_ASIMDDP (1UL << 20)
#define LINUX_HWCAP_SVE (1UL << 22)
#define LINUX_HWCAP_ASIMDFHM (1UL << 23)
#define LINUX_HWCAP2_I8MM (1UL << 13)
#define LINUX_HWCAP2_BF16 (1UL << 14)
#endif

int swiftdarknet_cpu_architecture(void) { return SWIFTDARKNET_ARCH_ARM64; }

uint32_t swiftdarknet_cpu_extensions(void) {
    uint32_t bits = SWIFTDARKNET_CPU_NEON;
#if defined(__APPLE__)
    if (apple_feature("hw.optional.arm.FEAT_DotProd")) bits |= SWIFTDARKNET_CPU_DOTPROD;
    if (apple_feature("hw.optional.arm.FEAT_I8MM")) bits |= SWIFTDARKNET_CPU_I8MM;
    if (apple_feature("hw.optional.arm.FEAT_FP16")) bits |= SWIFTDARKNET_CPU_FP16;
    if (apple_feature("hw.optional.arm.FEAT_FHM")) bits |= SWIFTDARKNET_CPU_FHM;
    if (apple_feature("hw.optional.arm.FEAT_BF16")) bits |= SWIFTDARKNET_CPU_BF16;
#elif defined(__linux__)
    const unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
    if (!(hwcap & LINUX_HWCAP_ASIMD)) bits &= ~(uint32_t)SWIFTDARKNET_CPU_NEON;
    if (hwcap & LINUX_HWCAP_ASIMDDP) bits |= SWIFTDARKNET_CPU_DOTPROD;
    if (hwcap & LINUX_HWCAP_ASIMDHP) bits |= SWIFTDARKNET_CPU_FP16;
    if (hwcap & LINUX_HWCAP_SVE) bits |= SWIFTDARKNET_CPU_SVE;
    if (hwcap & LINUX_HWCAP_ASIMDFHM) bits |= SWIFTDARKNET_CPU_FHM;
    if (hwcap2 & LINUX_HWCAP2_I8MM) bits |= SWIFTDARKNET_CPU_I8MM;
    if (hwcap2 & LINUX_HWCAP2_BF16) bits |= SWIFTDARKNET_CPU_BF16;
#endif
    return bits;
}
#endif
