#ifndef SWIFTDARKNET_COPENBLAS_SHIM_H
#define SWIFTDARKNET_COPENBLAS_SHIM_H
/*
 * OpenBLAS, bound at run time.
 *
 * OpenBLAS chooses its kernel family from the CPU when it is loaded, or from OPENBLAS_CORETYPE
 * if the process's environment names one. Its GEMMs give different bits in different families
 * (Haswell, Zen, SkylakeX, Cooperlake, ...), so every process that computes the same network
 * must get the same family. A process may load OpenBLAS before or beside our code: Debian's
 * FFmpeg does (libavdevice -> libavfilter -> libpocketsphinx -> libsphinxbase -> libblas.so.3,
 * the alternative that is OpenBLAS; DarknetVideo opens libavdevice with the first video), and
 * any program may link it. The library therefore takes OpenBLAS as it is, loaded or not: it
 * never chooses a family itself and never changes the environment (an OPENBLAS_CORETYPE set
 * here once took effect only in processes without FFmpeg, and leaked into their child
 * processes).
 *
 * The forward pass splits work over its own threads and calls the BLAS single-threaded:
 * swiftdarknet_blas_load sets OpenBLAS to one thread per call, whatever its environment said.
 * openblas_set_num_threads can still raise the count later (darknet-microbench --threads does).
 */
#include <dlfcn.h>
#include <stddef.h>

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

/* Opens OpenBLAS (the copy already in the process, if one is) and fills `blas`, with one
 * thread per call; returns 0 on success, -1 if the library or a symbol is missing. */
static inline int swiftdarknet_blas_load(swiftdarknet_blas *blas) {
    void *handle = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) handle = dlopen("libopenblas.so", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return -1;
    blas->sgemm = (swiftdarknet_sgemm_fn)dlsym(handle, "cblas_sgemm");
    blas->set_num_threads = (swiftdarknet_set_threads_fn)dlsym(handle, "openblas_set_num_threads");
    blas->corename = (swiftdarknet_corename_fn)dlsym(handle, "openblas_get_corename");
    if (blas->sgemm == NULL || blas->set_num_threads == NULL) return -1;
    blas->set_num_threads(1);
    return 0;
}

#endif
