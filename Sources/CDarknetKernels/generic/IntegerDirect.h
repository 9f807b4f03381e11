/*
 * The direct convolution's loop nest for one variant and one tile (IntegerKernelsTemplate.h
 * defines DIRECT_NAME, the function's name, DIRECT_TILE, the tile, and includes it once for the
 * 8-bit tile and once for the 16-bit one; this header undefines both at its end; SUFFIX and
 * INT8_TILE_STRIPS as for IntegerGemm.h): the GEMM's loop nest over the output's columns j = y *
 * out_width + x, each panel of B gathered from the padded layout (16 columns of 4 bytes per quad
 * and strip, in runs that stay within one output row) into `panel` a group of panels at a time,
 * which every chunk of row blocks then meets while it is in cache; each tile's columns are
 * stored as they are, the output's own.
 */

/* The pieces of one strip's 16 columns that lie in one output row each: the panel offset and
 * the layout offset (both in bytes, for kernel offset 0 and quad 0) and the length. */
typedef struct {
    int count;
    ptrdiff_t target[SWIFTDARKNET_INT8_STRIP], source[SWIFTDARKNET_INT8_STRIP], bytes[SWIFTDARKNET_INT8_STRIP];
} CAT(DIRECT_NAME, _runs);

static inline __attribute__((always_inline)) void CAT(DIRECT_NAME, _panel)(
    const swiftdarknet_int8_direct_input *in, ptrdiff_t strip, int strips, ptrdiff_t kq, ptrdiff_t columns,
    uint8_t *panel) {
    /* Strip s of the group at panel + s * kq * 64, the packed-B layout. Kernel offset (ky, kx)
     * reads phase plane (ky % stride, kx % stride) from pixel (ky / stride, kx / stride) on. */
    const ptrdiff_t size = in->size, stride = in->stride;
    const ptrdiff_t row_bytes = swiftdarknet_int8_direct_phase_side(in->padded_width, stride) * 4;
    const ptrdiff_t phase_bytes = swiftdarknet_int8_direct_phase_side(in->padded_height, stride) * row_bytes;
    const ptrdiff_t quad_bytes = stride * stride * phase_bytes;
    const ptrdiff_t out_width = (in->padded_width - size) / stride + 1, area = size * size;
    /* Each kernel offset's start within a quad's planes, computed once (divisions are slow). */
    ptrdiff_t offsets[SWIFTDARKNET_INT8_DIRECT_MAX_SIZE * SWIFTDARKNET_INT8_DIRECT_MAX_SIZE];
    for (ptrdiff_t ky = 0; ky < size; ky++)
        for (ptrdiff_t kx = 0; kx < size; kx++)
            offsets[ky * size + kx] = ((ky % stride) * stride + kx % stride) * phase_bytes + (ky / stride) * row_bytes +
                                      (kx / stride) * 4;
    for (int s = 0; s < strips; s++) {
        uint8_t *out = panel + s * kq * 64;
        const ptrdiff_t first = (strip + s) * 16;
        const ptrdiff_t valid = columns - first < 16 ? columns - first : 16;
        if (valid == 16 && first % out_width + 16 <= out_width) {
            /* The whole strip in one output row: one 64-byte piece per quad of k. */
            const uint8_t *base = in->layout + (first / out_width) * row_bytes + (first % out_width) * 4;
            for (ptrdiff_t q = 0; q < in->quads; q++) {
                const uint8_t *quad = base + q * quad_bytes;
                for (ptrdiff_t o = 0; o < area; o++, out += 64) memcpy(out, quad + offsets[o], 64);
            }
            continue;
        }
        CAT(DIRECT_NAME, _runs) runs;
        runs.count = 0;
        for (ptrdiff_t j = first; j < first + valid;) {
            const ptrdiff_t y = j / out_width, x = j - y * out_width;
            const ptrdiff_t length = out_width - x < first + valid - j ? out_width - x : first + valid - j;
            runs.target[runs.count] = (j - first) * 4;
            runs.source[runs.count] = y * row_bytes + x * 4;
            runs.bytes[runs.count] = length * 4;
            runs.count++;
            j += length;
        }
        for (ptrdiff_t q = 0; q < in->quads; q++)
            for (ptrdiff_t o = 0; o < area; o++, out += 64) {
                const uint8_t *row = in->layout + q * quad_bytes + offsets[o];
                for (int r = 0; r < runs.count; r++)
                    memcpy(out + runs.target[r], row + runs.source[r], (size_t)runs.bytes[r]);
                /* Columns past the output's last are computed and dropped; zero keeps them defined. */
                if (valid < 16) memset(out + valid * 4, 0, (size_t)(64 - valid * 4));
            }
    }
}

static void DIRECT_NAME(const int8_t *packed_a, ptrdiff_t m, const swiftdarknet_int8_direct_input *in,
                                      int kind, const swiftdarknet_int8_epilogue *epilogue, void *c, uint8_t *panel,
                                      ptrdiff_t n_begin, ptrdiff_t n_end) {
    const ptrdiff_t out_width = (in->padded_width - in->size) / in->stride + 1;
    const ptrdiff_t out_height = (in->padded_height - in->size) / in->stride + 1, n = out_height * out_width;
    if (n_end > n) n_end = n;
    if (m <= 0 || n_begin >= n_end) return;
    const ptrdiff_t kq = in->quads * in->size * in->size, blocks = (m + 7) / 8;
    const ptrdiff_t block_bytes = kq * 32, strip_bytes = kq * 64, ldc = n;
    ptrdiff_t chunk = INT8_CHUNK_BYTES / block_bytes;
    if (chunk < 1) chunk = 1;
    const ptrdiff_t group_strips = swiftdarknet_int8_direct_panel_bytes(kq * 4, n) / strip_bytes / INT8_TILE_STRIPS *
                                   INT8_TILE_STRIPS;
    const ptrdiff_t first_strip = n_begin / 16, end_strip = (n_end + 15) / 16;
    int32_t tile[8 * INT8_TILE_WIDTH] __attribute__((aligned(64)));
    /* A group of panels is copied once, then every chunk of row blocks meets it. */
    for (ptrdiff_t group = first_strip; group < end_strip; group += group_strips) {
        const ptrdiff_t group_end = group + group_strips < end_strip ? group + group_strips : end_strip;
        CAT(DIRECT_NAME, _panel)(in, group, (int)(group_end - group), kq, n, panel);
        for (ptrdiff_t chunk_begin = 0; chunk_begin < blocks; chunk_begin += chunk) {
            const ptrdiff_t chunk_end = chunk_begin + chunk < blocks ? chunk_begin + chunk : blocks;
            for (ptrdiff_t strip = group; strip < group_end; strip += INT8_TILE_STRIPS) {
                const int strips = (int)(group_end - strip < INT8_TILE_STRIPS ? group_end - strip : INT8_TILE_STRIPS);
                const ptrdiff_t column0 = strip * 16 > n_begin ? strip * 16 : n_begin;
                const ptrdiff_t column1 = (strip + strips) * 16 < n_end ? (strip + strips) * 16 : n_end;
                const uint8_t *b = panel + (strip - group) * strip_bytes;
                for (ptrdiff_t block = chunk_begin; block < chunk_end; block++) {
                    DIRECT_TILE(packed_a + block * block_bytes, b, kq, strips, tile);
                    const ptrdiff_t rows = m - block * 8 < 8 ? m - block * 8 : 8;
                    CAT(int8_store_, SUFFIX)(tile, rows, column0 - strip * 16, column1 - column0, block * 8, kind,
                                             epilogue, c, ldc, column0);
                }
            }
        }
    }
}

#undef DIRECT_NAME
#undef DIRECT_TILE
