#ifndef SWIFTDARKNET_COPENBLAS_SHIM_H
#define SWIFTDARKNET_COPENBLAS_SHIM_H
/*
 * OpenBLAS, bound at run time.
 *
 * OpenBLAS chooses its kernels from the CPU model when the library is loaded. On CPUs its
 * model table does not know (virtual machines often report a generic "Intel Xeon Processor")
 * it falls back to the SSE3 "Prescott" kernels, about 2.5x slower than the AVX-512 or AVX2
 * ones the CPU supports. Linking OpenBLAS normally would load it before any of our code runs,
 * so instead the library is opened here on first use, after naming the kernel family that
 * matches the CPU's own feature bits in OPENBLAS_CORETYPE. A value the user already set
 * is respected.
 *
 * The forward pass splits work over its own threads and calls the BLAS single-threaded, so
 * OpenBLAS starts with one thread (OPENBLAS_NUM_THREADS=1, unless the user set it or
 * OMP_NUM_THREADS): otherwise its idle worker threads spin in sched_yield for a while after
 * start-up, on the cores that are loading the weights. openblas_set_num_threads can still
 * raise the count later (darknet-microbench --threads does).
 */
#include <dlfcn.h>
#include <stdlib.h>

/* CBLAS row/column order and transpose flags (standard CBLAS values). */
enum { SWIFTDARKNET_CBLAS_ROW_MAJOR = 101, SWIFTDARKNET_CBLAS_NO_TRANS = 111 };

typedef void (*swiftdarknet_sgemm_fn)(int order, int trans_a, int trans_b, int m, int n, int k,
                                      float alpha, const float *a, int lda, const float *b, int ldb,
                                      float beta, float *c, int ldc);
typedef void (*swiftdarknet_set_threads_fn)(int threads);
typedef char *(*swiftdarknet_corename_fn)(void);

typedef struct {
    swiftdarknet_sgemm_fn sgemm;
    swiftdarknet_set_threads_fn set_num_threads;
    swiftdarknet_corename_fn corename;
} swiftdarknet_blas;

/* The OpenBLAS kernel family for this CPU's features, or NULL to let OpenBLAS decide. */
static inline const char *swiftdarknet_preferred_coretype(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "Haswell";
#endif
    return NULL;
}

/* Sets the environment OpenBLAS reads when it is opened (kernels for this CPU, one thread per
 * call) unless the user set it. Not thread-safe (setenv): call it before any other thread may
 * read the environment, then swiftdarknet_blas_load may run on any thread. */
static inline void swiftdarknet_blas_prepare_environment(void) {
    if (getenv("OPENBLAS_CORETYPE") == NULL) {
        const char *coretype = swiftdarknet_preferred_coretype();
        if (coretype != NULL) setenv("OPENBLAS_CORETYPE", coretype, 0);
    }
    if (getenv("OPENBLAS_NUM_THREADS") == NULL && getenv("OMP_NUM_THREADS") == NULL)
        setenv("OPENBLAS_NUM_THREADS", "1", 0);
}

/* Opens OpenBLAS and fills `blas`; returns 0 on success, -1 if the library or a symbol is missing.
 * swiftdarknet_blas_prepare_environment must have run. */
static inline int swiftdarknet_blas_load(swiftdarknet_blas *blas) {
    void *handle = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) handle = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return -1;
    blas->sgemm = (swiftdarknet_sgemm_fn)dlsym(handle, "cblas_sgemm");
    blas->set_num_threads = (swiftdarknet_set_threads_fn)dlsym(handle, "openblas_set_num_threads");
    blas->corename = (swiftdarknet_corename_fn)dlsym(handle, "openblas_get_corename");
    return (blas->sgemm != NULL && blas->set_num_threads != NULL) ? 0 : -1;
}

#endif
