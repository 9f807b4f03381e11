/*
 * BT.601 YUV to planar 8-bit RGB with swscale's integer arithmetic, one instruction-set variant
 * (see VectorKernelsTemplate.h and YUVToRGB.swift). Samples are scaled by 8 and each term keeps the high 16
 * bits of its product, so the loop is 16-bit multiplies the compiler vectorises.
 */
static void CAT(swiftdarknet_yuv_to_rgb_, SUFFIX)(const uint8_t *luma, const uint8_t *cb, const uint8_t *cr,
                                                 ptrdiff_t chroma_step, int odd, ptrdiff_t count,
                                                 const int16_t *coefficients, int16_t *scratch,
                                                 uint8_t *red, uint8_t *green, uint8_t *blue) {
    const int16_t luma_scale = coefficients[0], luma_offset = coefficients[1], red_v = coefficients[2];
    const int16_t blue_u = coefficients[3], green_u = coefficients[4], green_v = coefficients[5];
    int16_t *u = scratch, *v = scratch + count;
    /* Chroma per pixel: the sample covering it (pixel x of an odd-origin crop is frame pixel x + 1). */
    for (ptrdiff_t x = 0; x < count; x++) {
        ptrdiff_t c = ((x + odd) >> 1) * chroma_step;
        u[x] = (int16_t)((cb[c] << 3) - 1024);
        v[x] = (int16_t)((cr[c] << 3) - 1024);
    }
    for (ptrdiff_t x = 0; x < count; x++) {
        int16_t y = (int16_t)((luma[x] << 3) - luma_offset);
        int yt = (int16_t)(((int32_t)y * luma_scale) >> 16);
        int r = yt + (int16_t)(((int32_t)v[x] * red_v) >> 16);
        int g = yt + (int16_t)(((int32_t)u[x] * green_u) >> 16) + (int16_t)(((int32_t)v[x] * green_v) >> 16);
        int b = yt + (int16_t)(((int32_t)u[x] * blue_u) >> 16);
        red[x] = (uint8_t)(r < 0 ? 0 : (r > 255 ? 255 : r));
        green[x] = (uint8_t)(g < 0 ? 0 : (g > 255 ? 255 : g));
        blue[x] = (uint8_t)(b < 0 ? 0 : (b > 255 ? 255 : b));
    }
}
