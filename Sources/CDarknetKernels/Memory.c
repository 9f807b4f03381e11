#include "darknet_kernels.h"

#include <stdint.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

void swiftdarknet_advise_huge_pages(void *start, ptrdiff_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    const uintptr_t first = ((uintptr_t)start + huge - 1) & ~(huge - 1);
    const uintptr_t last = ((uintptr_t)start + (uintptr_t)bytes) & ~(huge - 1);
    if (last > first) madvise((void *)first, last - first, MADV_HUGEPAGE);
#else
    (void)start;
    (void)bytes;
#endif
}
