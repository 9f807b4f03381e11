/*
 * CPU features on an architecture with no code of its own here (x86/ and arm/ have theirs):
 * the portable kernels only.
 */
#if !defined(__x86_64__) && !defined(__aarch64__)
#include "CDarknetKernels/cpu.h"

int swiftdarknet_cpu_architecture(void) { return SWIFTDARKNET_ARCH_OTHER; }

uint32_t swiftdarknet_cpu_extensions(void) { return 0; }
#endif
