/*
 * Element-wise passes (bias + activation, logistic, shortcut sums), one instruction-set variant
 * (see VectorKernelsTemplate.h). Plain loops the compiler vectorises; the exponential is written out so that
 * the logistic vectorises too.
 */

/* e^x for x in [-87.3, 88.7] (callers clamp): x = n ln2 + r with |r| <= ln2 / 2, a degree-6
 * polynomial for e^r (relative error about 1e-7, 2 ulp), and 2^n put into the exponent bits. */
static inline __attribute__((always_inline)) float CAT(exp_, SUFFIX)(float x) {
    const float n = __builtin_roundevenf(x * 1.44269504088896341f);
    const float r = (x - n * 0.693359375f) + n * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const int bits = ((int)n + 127) << 23;
    float scale;
    __builtin_memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

static inline __attribute__((always_inline)) float CAT(logistic_, SUFFIX)(float x) {
    float t = -x;
    t = t > 88.0f ? 88.0f : (t < -87.0f ? -87.0f : t);
    return 1.0f / (1.0f + CAT(exp_, SUFFIX)(t));
}

static inline __attribute__((always_inline)) float CAT(activate_scalar_, SUFFIX)(float x, int kind) {
    switch (kind) {
    case SWIFTDARKNET_ACTIVATION_LEAKY: return x > 0 ? x : 0.1f * x;
    case SWIFTDARKNET_ACTIVATION_RELU: return x > 0 ? x : 0;
    case SWIFTDARKNET_ACTIVATION_LOGISTIC: return CAT(logistic_, SUFFIX)(x);
    default: return x;
    }
}

static void CAT(swiftdarknet_activate_, SUFFIX)(float *data, ptrdiff_t count, int kind) {
    switch (kind) {
    case SWIFTDARKNET_ACTIVATION_LEAKY:
        for (ptrdiff_t i = 0; i < count; i++) data[i] = CAT(activate_scalar_, SUFFIX)(data[i], SWIFTDARKNET_ACTIVATION_LEAKY);
        return;
    case SWIFTDARKNET_ACTIVATION_RELU:
        for (ptrdiff_t i = 0; i < count; i++) data[i] = CAT(activate_scalar_, SUFFIX)(data[i], SWIFTDARKNET_ACTIVATION_RELU);
        return;
    case SWIFTDARKNET_ACTIVATION_LOGISTIC:
        for (ptrdiff_t i = 0; i < count; i++) data[i] = CAT(logistic_, SUFFIX)(data[i]);
        return;
    default:
        return;
    }
}

/* out[i] = activation(in[i] + bias) for `count` values (`in` may be `out`). */
static inline __attribute__((always_inline)) void CAT(bias_activate_row_, SUFFIX)(const float *in, float *out,
                                                                                 ptrdiff_t count, float bias, int kind) {
    switch (kind) {
    case SWIFTDARKNET_ACTIVATION_LEAKY:
        for (ptrdiff_t i = 0; i < count; i++) out[i] = CAT(activate_scalar_, SUFFIX)(in[i] + bias, SWIFTDARKNET_ACTIVATION_LEAKY);
        break;
    case SWIFTDARKNET_ACTIVATION_RELU:
        for (ptrdiff_t i = 0; i < count; i++) out[i] = CAT(activate_scalar_, SUFFIX)(in[i] + bias, SWIFTDARKNET_ACTIVATION_RELU);
        break;
    case SWIFTDARKNET_ACTIVATION_LOGISTIC:
        for (ptrdiff_t i = 0; i < count; i++) out[i] = CAT(logistic_, SUFFIX)(in[i] + bias);
        break;
    default:
        for (ptrdiff_t i = 0; i < count; i++) out[i] = in[i] + bias;
        break;
    }
}

static void CAT(swiftdarknet_bias_activate_, SUFFIX)(float *data, const float *biases, ptrdiff_t channels,
                                                     ptrdiff_t plane, int kind) {
    for (ptrdiff_t c = 0; c < channels; c++) {
        CAT(bias_activate_row_, SUFFIX)(data + c * plane, data + c * plane, plane, biases[c], kind);
    }
}

static void CAT(swiftdarknet_weighted_sum_, SUFFIX)(const float *previous, const float *from, ptrdiff_t count,
                                                    float alpha, float beta, float *output) {
    if (alpha == 1 && beta == 1) {
        for (ptrdiff_t i = 0; i < count; i++) output[i] = previous[i] + from[i];
    } else {
        for (ptrdiff_t i = 0; i < count; i++) output[i] = alpha * previous[i] + beta * from[i];
    }
}

/* destination[i] = source[2 * i] for i < count; never reads past source[2 * (count - 1)]. */
static void CAT(swiftdarknet_copy_even_, SUFFIX)(const float *source, float *destination, ptrdiff_t count) {
    ptrdiff_t i = 0;
    for (; i + LANES < count; i += LANES) {
        const VEC a = CAT(load_, SUFFIX)(source + 2 * i), b = CAT(load_, SUFFIX)(source + 2 * i + LANES);
        const VEC even = __builtin_shufflevector(a, b, EVEN_INDICES);
        __builtin_memcpy(destination + i, &even, sizeof even);
    }
    for (; i < count; i++) destination[i] = source[2 * i];
}
