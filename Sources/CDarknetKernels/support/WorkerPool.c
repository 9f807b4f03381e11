/*
 * A pool of helper threads that spin between jobs: see swiftdarknet_pool_create.
 */
#include "CDarknetKernels/worker_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "Primitives.h"

struct swiftdarknet_pool;

typedef struct {
    struct swiftdarknet_pool *pool;
    ptrdiff_t index; /* 1 ... helpers: the caller is worker 0 */
    pthread_t thread;
} swiftdarknet_helper;

/* One worker's unclaimed units of a ranges job, [front, back), in one word so that its owner
 * (taking from the front) and other workers (taking from the back) claim with one
 * compare-and-swap; a cache line each. */
typedef struct {
    _Alignas(64) uint64_t bounds; /* atomic: front | back << 32 */
} swiftdarknet_share;

struct swiftdarknet_pool {
    ptrdiff_t helpers;
    swiftdarknet_helper *threads;
    swiftdarknet_share *shares; /* helpers + 1 */
    /* The job: written by the caller before it bumps `generation`, read by helpers after they
     * see the new generation, not written again before every helper has counted `pending` down. */
    swiftdarknet_task task;
    void *context;
    ptrdiff_t count;
    uint64_t generation; /* atomic */
    ptrdiff_t pending;   /* atomic: helpers not yet done with the current job */
    int sleepers;        /* atomic: helpers blocked on `wake` */
    int stop;            /* atomic */
    pthread_mutex_t mutex;
    pthread_cond_t wake;
};

/* How long a helper spins for the next job before it blocks: long enough to cover the gaps
 * between the parallel steps of a forward pass, short enough not to burn a core when idle. */
static const int64_t spin_nanoseconds = 1000000;

static int64_t now_nanoseconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Waits for a generation other than `seen` (or stop) and returns it. */
static uint64_t wait_for_job(struct swiftdarknet_pool *pool, uint64_t seen) {
    const int64_t deadline = now_nanoseconds() + spin_nanoseconds;
    for (unsigned spins = 1;; spins++) {
        const uint64_t generation = __atomic_load_n(&pool->generation, __ATOMIC_ACQUIRE);
        if (generation != seen || __atomic_load_n(&pool->stop, __ATOMIC_ACQUIRE)) return generation;
        if ((spins & 255) == 0 && now_nanoseconds() > deadline) break;
        SPIN_PAUSE();
    }
    pthread_mutex_lock(&pool->mutex);
    /* Sequentially consistent with the caller's bump-then-check, so either this sees the new
     * generation or the caller sees a sleeper and signals under the mutex. */
    __atomic_fetch_add(&pool->sleepers, 1, __ATOMIC_SEQ_CST);
    uint64_t generation;
    while ((generation = __atomic_load_n(&pool->generation, __ATOMIC_SEQ_CST)) == seen &&
           !__atomic_load_n(&pool->stop, __ATOMIC_SEQ_CST))
        pthread_cond_wait(&pool->wake, &pool->mutex);
    __atomic_fetch_sub(&pool->sleepers, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&pool->mutex);
    return generation;
}

static void *helper_main(void *argument) {
    swiftdarknet_helper *helper = argument;
    struct swiftdarknet_pool *pool = helper->pool;
    uint64_t seen = 0;
    for (;;) {
        seen = wait_for_job(pool, seen);
        if (__atomic_load_n(&pool->stop, __ATOMIC_ACQUIRE)) return NULL;
        if (helper->index < pool->count) pool->task(pool->context, helper->index);
        __atomic_fetch_sub(&pool->pending, 1, __ATOMIC_RELEASE);
    }
}

swiftdarknet_pool *swiftdarknet_pool_create(ptrdiff_t helpers) {
    struct swiftdarknet_pool *pool = calloc(1, sizeof *pool);
    if (pool == NULL) return NULL;
    pool->threads = calloc(helpers > 0 ? (size_t)helpers : 1, sizeof *pool->threads);
    const size_t share_bytes = (size_t)(helpers > 0 ? helpers + 1 : 1) * sizeof(swiftdarknet_share);
    pool->shares = aligned_alloc(_Alignof(swiftdarknet_share), share_bytes);
    if (pool->threads == NULL || pool->shares == NULL) {
        free(pool->threads);
        free(pool->shares);
        free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    for (ptrdiff_t h = 0; h < helpers; h++) {
        pool->threads[h].pool = pool;
        pool->threads[h].index = h + 1;
        if (pthread_create(&pool->threads[h].thread, NULL, helper_main, &pool->threads[h]) != 0) break;
        pool->helpers = h + 1;
    }
    return pool;
}

ptrdiff_t swiftdarknet_pool_helpers(const swiftdarknet_pool *pool) { return pool->helpers; }

void swiftdarknet_pool_run(swiftdarknet_pool *pool, ptrdiff_t count, swiftdarknet_task task, void *context) {
    if (count <= 1 || pool->helpers == 0) {
        for (ptrdiff_t worker = 0; worker < count; worker++) task(context, worker);
        return;
    }
    pool->task = task;
    pool->context = context;
    pool->count = count;
    __atomic_store_n(&pool->pending, pool->helpers, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pool->generation, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&pool->sleepers, __ATOMIC_SEQ_CST) > 0) {
        pthread_mutex_lock(&pool->mutex);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mutex);
    }
    /* Workers the pool lacks (count > helpers + 1) run here, after the caller's own. */
    for (ptrdiff_t worker = 0; worker < count; worker = worker == 0 ? pool->helpers + 1 : worker + 1)
        task(context, worker);
    for (unsigned spins = 1; __atomic_load_n(&pool->pending, __ATOMIC_ACQUIRE) > 0; spins++) {
        if ((spins & 1023) == 0) sched_yield(); /* a helper may have lost its core */
        else SPIN_PAUSE();
    }
}

void swiftdarknet_pool_destroy(swiftdarknet_pool *pool) {
    if (pool == NULL) return;
    __atomic_store_n(&pool->stop, 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&pool->generation, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&pool->mutex);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (ptrdiff_t h = 0; h < pool->helpers; h++) pthread_join(pool->threads[h].thread, NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->mutex);
    free(pool->threads);
    free(pool->shares);
    free(pool);
}

typedef struct {
    swiftdarknet_share *shares;
    ptrdiff_t count, units, workers;
    swiftdarknet_pieces pieces;
    swiftdarknet_range_task task;
    void *context;
} swiftdarknet_ranges_job;

static uint64_t pack_share(uint32_t front, uint32_t back) { return (uint64_t)front | (uint64_t)back << 32; }

/* Runs units [first, last) of the job as one piece on `worker`. */
static void run_units(const swiftdarknet_ranges_job *job, uint32_t first, uint32_t last, ptrdiff_t worker) {
    const ptrdiff_t begin = (ptrdiff_t)((unsigned __int128)job->count * first / (uint64_t)job->units);
    const ptrdiff_t end = (ptrdiff_t)((unsigned __int128)job->count * last / (uint64_t)job->units);
    job->task(job->context, begin, end, worker);
}

/* Units [first, last) of `share` at the start of the job: a near-equal cut of all of them. */
static uint32_t share_start(const swiftdarknet_ranges_job *job, ptrdiff_t share) {
    return (uint32_t)(job->units * share / job->workers);
}

/* How many units the owner of a share takes from its front: three quarters of the share at
 * first (all of it when it is one unit), then half of what is left (rounded up). So a balanced
 * job runs two or three pieces per worker, and a quarter of each share stays for a worker that
 * finishes early. */
static uint32_t owner_take(const swiftdarknet_ranges_job *job, ptrdiff_t share, uint32_t front, uint32_t left) {
    if (job->pieces == SWIFTDARKNET_PIECES_FINEST) return 1;
    if (front == share_start(job, share)) {
        const uint32_t reserve = left / 4 > 0 ? left / 4 : 1;
        return left > reserve ? left - reserve : left;
    }
    return (left + 1) / 2;
}

/* Claims units of share `index` until none are left, running each claim: from the front for
 * its owner, else half of what is left (at least one unit) from the back. */
static void drain_share(const swiftdarknet_ranges_job *job, ptrdiff_t index, ptrdiff_t worker) {
    swiftdarknet_share *share = &job->shares[index];
    const int own = index == worker;
    uint64_t bounds = __atomic_load_n(&share->bounds, __ATOMIC_ACQUIRE);
    for (;;) {
        const uint32_t front = (uint32_t)bounds, back = (uint32_t)(bounds >> 32);
        if (front >= back) return;
        const uint32_t left = back - front;
        uint32_t take = own ? owner_take(job, index, front, left)
                            : job->pieces == SWIFTDARKNET_PIECES_FINEST ? 1 : left / 2;
        if (take == 0) take = 1;
        const uint64_t claimed = own ? pack_share(front + take, back) : pack_share(front, back - take);
        if (!__atomic_compare_exchange_n(&share->bounds, &bounds, claimed, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            continue; /* `bounds` now holds the current value */
        if (own) run_units(job, front, front + take, worker);
        else run_units(job, back - take, back, worker);
        bounds = __atomic_load_n(&share->bounds, __ATOMIC_ACQUIRE);
    }
}

static void ranges_worker(void *context, ptrdiff_t worker) {
    const swiftdarknet_ranges_job *job = context;
    for (ptrdiff_t step = 0; step < job->workers; step++) drain_share(job, (worker + step) % job->workers, worker);
}

void swiftdarknet_pool_run_ranges(swiftdarknet_pool *pool, ptrdiff_t count, ptrdiff_t units, ptrdiff_t workers,
                                  swiftdarknet_pieces pieces, swiftdarknet_range_task task, void *context) {
    if (units > count) units = count;
    if (units > (ptrdiff_t)UINT32_MAX) units = (ptrdiff_t)UINT32_MAX;
    if (workers > pool->helpers + 1) workers = pool->helpers + 1;
    if (workers > units) workers = units;
    if (workers <= 1) {
        if (count > 0) task(context, 0, count, 0);
        return;
    }
    swiftdarknet_ranges_job job = {pool->shares, count, units, workers, pieces, task, context};
    for (ptrdiff_t w = 0; w < workers; w++)
        __atomic_store_n(&pool->shares[w].bounds, pack_share(share_start(&job, w), share_start(&job, w + 1)),
                         __ATOMIC_RELAXED);
    swiftdarknet_pool_run(pool, workers, ranges_worker, &job);
}
