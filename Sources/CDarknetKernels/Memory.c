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

void swiftdarknet_prefault_read(const void *start, ptrdiff_t bytes) {
#if defined(__linux__) && defined(MADV_POPULATE_READ)
    const uintptr_t page = 4096;
    const uintptr_t first = (uintptr_t)start & ~(page - 1);
    const uintptr_t end = (uintptr_t)start + (uintptr_t)bytes;
    if (bytes > 0) (void)madvise((void *)first, end - first, MADV_POPULATE_READ);
#else
    (void)start;
    (void)bytes;
#endif
}
