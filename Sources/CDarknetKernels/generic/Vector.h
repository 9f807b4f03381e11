/*
 * Vector type and helpers of one vector kernel target (see VectorKernelsTemplate.h).
 */
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define CAT_STRING_(a) #a
#define CAT_STRING(a) CAT_STRING_(a)
#define VEC CAT(vec_, SUFFIX)

typedef float VEC __attribute__((vector_size(LANES * 4), aligned(4)));

static inline __attribute__((always_inline)) VEC CAT(load_, SUFFIX)(const float *p) {
    VEC v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) VEC CAT(splat_, SUFFIX)(float x) {
    return __builtin_shufflevector((VEC){x}, (VEC){x}, SPLAT_INDICES);
}

/* Bias, then the fused activation (leaky as max(x, 0.1x), which is Darknet's x > 0 ? x : 0.1x). */
static inline __attribute__((always_inline)) VEC CAT(finish_, SUFFIX)(VEC x, int epilogue) {
    if (epilogue == SWIFTDARKNET_EPILOGUE_BIAS_LEAKY) return __builtin_elementwise_max(x, x * CAT(splat_, SUFFIX)(0.1f));
    if (epilogue == SWIFTDARKNET_EPILOGUE_BIAS_RELU) return __builtin_elementwise_max(x, CAT(splat_, SUFFIX)(0.0f));
    return x;
}

