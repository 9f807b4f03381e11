/*
 * The int8 GEMM's loop nest for one variant (IntegerKernelsTemplate.h's SUFFIX, INT8_TILE, the
 * tile function, and INT8_TILE_STRIPS, the strips it takes at once). The row blocks of the caller's
 * rows are taken in chunks of about INT8_CHUNK_BYTES of packed A (kept in L2 while every panel
 * of B passes by); within a chunk, each panel of B (INT8_TILE_STRIPS strips over all of K)
 * meets every row block of the chunk while it is in cache. Each tile accumulates all of K in
 * registers, then the epilogue.
 */
static void CAT(int8_gemm_, SUFFIX)(const int8_t *packed_a, const uint8_t *packed_b, ptrdiff_t m, ptrdiff_t n,
                                    ptrdiff_t k, int kind, const swiftdarknet_int8_epilogue *epilogue, void *c,
                                    ptrdiff_t ldc, ptrdiff_t n_begin, ptrdiff_t n_end, ptrdiff_t m_begin,
                                    ptrdiff_t m_end) {
    if (n_end > n) n_end = n;
    if (m_end > m) m_end = m;
    if (m_begin >= m_end || n_begin >= n_end) return;
    const ptrdiff_t kq = (k + 3) / 4, first_block = m_begin / 8, blocks = (m_end + 7) / 8;
    const ptrdiff_t block_bytes = kq * 32, strip_bytes = kq * 64;
    ptrdiff_t chunk = INT8_CHUNK_BYTES / block_bytes;
    if (chunk < 1) chunk = 1;
    const ptrdiff_t first_strip = n_begin / 16, end_strip = (n_end + 15) / 16;
    int32_t tile[8 * INT8_TILE_WIDTH] __attribute__((aligned(64)));
    for (ptrdiff_t chunk_begin = first_block; chunk_begin < blocks; chunk_begin += chunk) {
        const ptrdiff_t chunk_end = chunk_begin + chunk < blocks ? chunk_begin + chunk : blocks;
        for (ptrdiff_t strip = first_strip; strip < end_strip; strip += INT8_TILE_STRIPS) {
            const int strips = (int)(end_strip - strip < INT8_TILE_STRIPS ? end_strip - strip : INT8_TILE_STRIPS);
            const ptrdiff_t column0 = strip * 16 > n_begin ? strip * 16 : n_begin;
            const ptrdiff_t column1 = (strip + strips) * 16 < n_end ? (strip + strips) * 16 : n_end;
            for (ptrdiff_t block = chunk_begin; block < chunk_end; block++) {
                INT8_TILE(packed_a + block * block_bytes, packed_b + strip * strip_bytes, kq, strips, tile);
                const ptrdiff_t rows = m_end - block * 8 < 8 ? m_end - block * 8 : 8;
                CAT(int8_store_, SUFFIX)(tile, rows, column0 - strip * 16, column1 - column0, block * 8, kind,
                                         epilogue, c, ldc, column0);
            }
        }
    }
}
