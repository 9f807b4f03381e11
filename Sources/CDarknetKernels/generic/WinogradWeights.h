/*
 * Winograd weight transforms `G g Gᵀ`, one vector kernel target (see VectorKernelsTemplate.h): sixteen 3x3
 * kernels at a time, one per lane of a 16-float vector, so each element's sixteen values leave
 * as one 64-byte row (the element matrices lie far apart; a row per kernel would thrash).
 */
typedef float CAT(v16_, SUFFIX) __attribute__((vector_size(64), aligned(4)));
#define V16 CAT(v16_, SUFFIX)
typedef uint32_t CAT(vu16_, SUFFIX) __attribute__((vector_size(64), aligned(4)));
#define VU16 CAT(vu16_, SUFFIX)

/* Kernel `lane` (lanes below `count`) at g + lane * lane_stride, times scales[lane] (1 without
 * `scales`), into k[0...8]; lanes from `count` on are zero, and neither their kernels nor their
 * scales are read (past the last filter there are none). Raises each lane of *largest to the
 * largest magnitude in it, compared by bits (NaN and infinity above every finite value). */
static inline __attribute__((always_inline)) void CAT(winograd_gather16_, SUFFIX)(const float *g,
                                                                               ptrdiff_t lane_stride, int count,
                                                                               const float *scales, V16 *k,
                                                                               VU16 *largest) {
    float values[9][16];
    for (int lane = 0; lane < 16; lane++) {
        if (lane >= count) {
            for (int i = 0; i < 9; i++) values[i][lane] = 0.0f;
            continue;
        }
        const float *kernel = g + lane * lane_stride;
        const float scale = scales ? scales[lane] : 1.0f;
        for (int i = 0; i < 9; i++) values[i][lane] = kernel[i] * scale;
    }
    for (int i = 0; i < 9; i++) {
        __builtin_memcpy(&k[i], values[i], sizeof(V16));
        VU16 bits;
        __builtin_memcpy(&bits, values[i], sizeof bits);
        *largest = __builtin_elementwise_max(*largest, bits & 0x7FFFFFFFu);
    }
}

/* The largest lane of `largest`, as a float (see winograd_gather16). */
static inline float CAT(winograd_largest_, SUFFIX)(const VU16 *largest) {
    uint32_t bits = 0;
    for (int lane = 0; lane < 16; lane++) bits = (*largest)[lane] > bits ? (*largest)[lane] : bits;
    float value;
    __builtin_memcpy(&value, &bits, sizeof value);
    return value;
}

/* F(4x4, 3x3): G = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6; 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1]
 * applied to the vectors g[0], g[g_step], g[2 * g_step]. */
static inline __attribute__((always_inline)) void CAT(winograd_g43_, SUFFIX)(const V16 *g, int g_step, V16 *out,
                                                                            int step) {
    const V16 g0 = g[0], g1 = g[g_step], g2 = g[2 * g_step];
    out[0] = g0 * 0.25f;
    out[step] = (g0 + g1 + g2) * (-1.0f / 6);
    out[2 * step] = (g0 - g1 + g2) * (-1.0f / 6);
    out[3 * step] = g0 * (1.0f / 24) + g1 * (1.0f / 12) + g2 * (1.0f / 6);
    out[4 * step] = g0 * (1.0f / 24) - g1 * (1.0f / 12) + g2 * (1.0f / 6);
    out[5 * step] = g2;
}

/* F(2x2, 3x3): G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1] applied as winograd_g43. */
static inline __attribute__((always_inline)) void CAT(winograd_g23_, SUFFIX)(const V16 *g, int g_step, V16 *out,
                                                                            int step) {
    const V16 g0 = g[0], g1 = g[g_step], g2 = g[2 * g_step];
    out[0] = g0;
    out[step] = (g0 + g1 + g2) * 0.5f;
    out[2 * step] = (g0 - g1 + g2) * 0.5f;
    out[3 * step] = g2;
}

/* F(3x3, 3x3) (points ±1/2, ±3/2 and infinity): G = [-1/2 -1/4 -1/8; 1/2 -1/4 1/8; 1/6 1/4 3/8;
 * -1/6 1/4 -3/8; 0 0 1] applied as winograd_g43. */
static inline __attribute__((always_inline)) void CAT(winograd_g33_, SUFFIX)(const V16 *g, int g_step, V16 *out,
                                                                            int step) {
    const V16 g0 = g[0], g1 = g[g_step], g2 = g[2 * g_step];
    out[0] = g0 * -0.5f - g1 * 0.25f - g2 * 0.125f;
    out[step] = g0 * 0.5f - g1 * 0.25f + g2 * 0.125f;
    out[2 * step] = g0 * (1.0f / 6) + g1 * 0.25f + g2 * 0.375f;
    out[3 * step] = g0 * (-1.0f / 6) + g1 * 0.25f - g2 * 0.375f;
    out[4 * step] = g2;
}

/* `G g Gᵀ` of up to 16 kernels (see winograd_gather16), element i of kernel `lane` to
 * u[i * plane + lane]: n = 6 for F(4x4, 3x3), 5 for F(3x3, 3x3), 4 for F(2x2, 3x3). */
static inline __attribute__((always_inline)) void CAT(winograd_transform16_, SUFFIX)(
    const float *g, ptrdiff_t lane_stride, int count, const float *scales, int n, float *u, ptrdiff_t plane,
    VU16 *largest) {
    V16 k[9], gg[6 * 3], row[6];
    CAT(winograd_gather16_, SUFFIX)(g, lane_stride, count, scales, k, largest);
    for (int j = 0; j < 3; j++) {
        if (n == 6) CAT(winograd_g43_, SUFFIX)(k + j, 3, gg + j, 3);
        else if (n == 5) CAT(winograd_g33_, SUFFIX)(k + j, 3, gg + j, 3);
        else CAT(winograd_g23_, SUFFIX)(k + j, 3, gg + j, 3);
    }
    for (int i = 0; i < n; i++) {
        if (n == 6) CAT(winograd_g43_, SUFFIX)(gg + i * 3, 1, row, 1);
        else if (n == 5) CAT(winograd_g33_, SUFFIX)(gg + i * 3, 1, row, 1);
        else CAT(winograd_g23_, SUFFIX)(gg + i * 3, 1, row, 1);
        for (int j = 0; j < n; j++) __builtin_memcpy(u + (i * n + j) * plane, &row[j], sizeof(V16));
    }
}

/* Blocks [first_block, first_block + block_count) of one layout (see swiftdarknet_winograd_weights):
 * any n filter-major or channel-major. Returns the largest magnitude of the
 * scaled weights (NaN or infinity if any is one). */
static float CAT(swiftdarknet_winograd_weights_, SUFFIX)(const float *g, const float *filter_scales,
                                                       ptrdiff_t filters, ptrdiff_t channels, int n,
                                                       int channel_major, float *u, ptrdiff_t first_block,
                                                       ptrdiff_t block_count) {
    VU16 largest = {0};
    if (!channel_major) {
        /* Consecutive kernels land next to each other in every element's matrix; a partial last
         * block must not write past the end of each row, so it goes through a local copy. */
        const ptrdiff_t plane = filters * channels;
        for (ptrdiff_t block = first_block; block < first_block + block_count; block++) {
            const ptrdiff_t first = block * 16;
            const int count = plane - first < 16 ? (int)(plane - first) : 16;
            /* The sixteen kernels may span two or more filters. */
            float lane_scales[16];
            for (int lane = 0; lane < count; lane++)
                lane_scales[lane] = filter_scales ? filter_scales[(first + lane) / channels] : 1.0f;
            if (count == 16) {
                CAT(winograd_transform16_, SUFFIX)(g + (first - first_block * 16) * 9, 9, 16, lane_scales, n, u + first,
                                                   plane, &largest);
            } else {
                float local[36 * 16];
                CAT(winograd_transform16_, SUFFIX)(g + (first - first_block * 16) * 9, 9, count, lane_scales, n, local, 16,
                                                   &largest);
                for (int i = 0; i < n * n; i++)
                    __builtin_memcpy(u + i * plane + first, local + i * 16, sizeof(float) * count);
            }
        }
        return CAT(winograd_largest_, SUFFIX)(&largest);
    }
    /* In blocks of 16 filters: u[element][block][channel][lane], zero past the last filter. */
    const ptrdiff_t plane = channels * ((filters + 15) / 16 * 16);
    for (ptrdiff_t block = first_block; block < first_block + block_count; block++) {
        const int count = filters - block * 16 < 16 ? (int)(filters - block * 16) : 16;
        for (ptrdiff_t c = 0; c < channels; c++)
            CAT(winograd_transform16_, SUFFIX)(g + ((block - first_block) * 16 * channels + c) * 9, channels * 9, count,
                                               filter_scales ? filter_scales + block * 16 : NULL, n,
                                               u + block * channels * 16 + c * 16, plane, &largest);
    }
    return CAT(winograd_largest_, SUFFIX)(&largest);
}
#undef V16
#undef VU16
