/// Where the tiles of an image go (`TilingOptions`), in pixels, row by row.
public enum TileLayout {
    /// The regions to run for an image of `imageWidth x imageHeight` with a network input of
    /// `networkWidth x networkHeight`: the whole image first when `options.includesFullImage`
    /// (or when there is one tile), then the tiles. A single region means no tiling.
    public static func regions(imageWidth: Int, imageHeight: Int, networkWidth: Int, networkHeight: Int,
                               options: TilingOptions) -> [PixelRegion] {
        let whole = PixelRegion(x: 0, y: 0, width: imageWidth, height: imageHeight)
        let overlap = min(max(options.overlap, 0), 0.95)
        let columns: [(Int, Int)], rows: [(Int, Int)]
        switch options.tileSize {
        case .automatic:
            columns = gridSpans(length: imageWidth, network: networkWidth, overlap: overlap)
            rows = gridSpans(length: imageHeight, network: networkHeight, overlap: overlap)
        case .pixels(let width, let height):
            columns = sliceSpans(length: imageWidth, tile: width, overlap: overlap)
            rows = sliceSpans(length: imageHeight, tile: height, overlap: overlap)
        }
        let tiles = rows.flatMap { y in columns.map { x in PixelRegion(x: x.0, y: y.0, width: x.1, height: y.1) } }
        if tiles == [whole] { return [whole] }
        return (options.includesFullImage ? [whole] : []) + tiles
    }

    /// DarkHelp's count along one axis, `round(max(1, length / network))`, each tile enlarged
    /// to share `overlap` of itself with the next, spread evenly from edge to edge.
    static func gridSpans(length: Int, network: Int, overlap: Float) -> [(Int, Int)] {
        let count = max(1, Int((Float(length) / Float(max(1, network))).rounded()))
        guard count > 1 else { return [(0, length)] }
        let tile = min(length, Int((Float(length) / (Float(count) - Float(count - 1) * overlap)).rounded(.up)))
        return (0..<count).map { i in (Int((Float(i) * Float(length - tile) / Float(count - 1)).rounded()), tile) }
    }

    /// SAHI's slices along one axis: starts `tile - int(overlap * tile)` apart, the last one moved
    /// back to end at the image's edge.
    static func sliceSpans(length: Int, tile requested: Int, overlap: Float) -> [(Int, Int)] {
        let tile = min(max(1, requested), length)
        let step = max(1, tile - Int(overlap * Float(tile)))
        var spans: [(Int, Int)] = []
        var start = 0
        while true {
            if start + tile >= length {
                spans.append((length - tile, tile))
                return spans
            }
            spans.append((start, tile))
            start += step
        }
    }
}
