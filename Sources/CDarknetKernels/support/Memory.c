#include "CDarknetKernels/memory.h"

#include <stdint.h>

#if defined(__linux__)
#include <sys/mman.h>
/* Linux 5.14; older kernels answer EINVAL and the pages fault in when first used. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#endif

int swiftdarknet_prefault_write(void *start, ptrdiff_t bytes) {
#if defined(__linux__)
    const uintptr_t page = 4096;
    const uintptr_t first = ((uintptr_t)start + page - 1) & ~(page - 1);
    const uintptr_t end = ((uintptr_t)start + (uintptr_t)bytes) & ~(page - 1);
    return end > first ? madvise((void *)first, end - first, MADV_POPULATE_WRITE) : 0;
#else
    (void)start;
    (void)bytes;
    return 0;
#endif
}
