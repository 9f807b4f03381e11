#ifndef SWIFTDARKNET_WORKER_POOL_H
#define SWIFTDARKNET_WORKER_POOL_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Helper threads for the forward pass's splits (support/WorkerPool.c). Between jobs each helper spins
 * for about a millisecond before it blocks, so the steps of a forward pass hand work over without
 * waking a sleeping thread (on a virtual machine, an idle virtual CPU can take long to wake).
 * One thread at a time may run jobs on a pool. */
typedef struct swiftdarknet_pool swiftdarknet_pool;
typedef void (*swiftdarknet_task)(void *context, ptrdiff_t worker);

/* A pool with `helpers` threads besides the caller's (fewer if threads cannot be created); NULL
 * if out of memory. */
swiftdarknet_pool *swiftdarknet_pool_create(ptrdiff_t helpers);
/* Helper threads the pool has. */
ptrdiff_t swiftdarknet_pool_helpers(const swiftdarknet_pool *pool);
/* Runs task(context, w) for w in [0, count) and returns when all are done: w = 0 on the calling
 * thread, w = 1 ... helpers on the helpers, any further ones on the calling thread. */
void swiftdarknet_pool_run(swiftdarknet_pool *pool, ptrdiff_t count, swiftdarknet_task task, void *context);

typedef void (*swiftdarknet_range_task)(void *context, ptrdiff_t begin, ptrdiff_t end, ptrdiff_t worker);

/* How workers take their pieces of a swiftdarknet_pool_run_ranges job. */
typedef enum {
    /* Three quarters of their own share first, then half of what is left at a time: two or
     * three pieces per worker when the workers keep pace. */
    SWIFTDARKNET_PIECES_HALVING = 0,
    /* One unit at a time, both from their own share and from others': for tests, which need
     * every item computed in a piece of its own boundaries. */
    SWIFTDARKNET_PIECES_FINEST = 1,
} swiftdarknet_pieces;

/* Runs task(context, begin, end, w) over pieces that together cover [0, count) once, and returns
 * when all are done. [0, count) is cut into `units` near-equal runs (unit u starts at
 * count * u / units; units <= count, < 2^32); pieces are whole runs of units. Each of the
 * `workers` workers (at most helpers + 1; worker 0 is the calling thread) starts on its own
 * contiguous share of the units, front to back; a worker whose share is done takes half of what
 * is left of another's from the back. A slower core so ends with less work instead of holding
 * up the job. */
void swiftdarknet_pool_run_ranges(swiftdarknet_pool *pool, ptrdiff_t count, ptrdiff_t units, ptrdiff_t workers,
                                  swiftdarknet_pieces pieces, swiftdarknet_range_task task, void *context);
/* Stops and joins the helpers, then frees the pool (NULL is ignored). */
void swiftdarknet_pool_destroy(swiftdarknet_pool *pool);

#ifdef __cplusplus
}
#endif
#endif
