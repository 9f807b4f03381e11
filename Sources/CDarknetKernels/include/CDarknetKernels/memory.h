#ifndef SWIFTDARKNET_MEMORY_H
#define SWIFTDARKNET_MEMORY_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Backs every page of fresh memory [start, start + bytes) in one call (Linux 5.14+
 * MADV_POPULATE_WRITE; a no-op where unsupported), instead of one trap per 4 KiB when it is
 * first written: the weights laid out at load. Plain pages on purpose: on a VM that hands free
 * memory back to its host, fresh 2 MiB pages often come from memory the host must back again,
 * which made loads 2x slower and far less predictable than the few percent huge pages save in
 * the forward pass. Returns 0 on success. */
int swiftdarknet_prefault_write(void *start, ptrdiff_t bytes);

#ifdef __cplusplus
}
#endif
#endif
