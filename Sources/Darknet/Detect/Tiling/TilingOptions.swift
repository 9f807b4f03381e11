/// How `Detector` cuts a large image into tiles, runs each as its own network input and merges
/// what the tiles found: small objects that vanish when a 4K frame is shrunk into a 416x416
/// input keep their pixels in a tile. The ideas are DarkHelp's (its automatic tile grid) and
/// SAHI's (overlapping slices, a full-image pass, merging by NMS or NMM over IoU or
/// intersection-over-smaller), their defaults included.
///
/// Each tile is a crop of the image, letterboxed (or stretched, per `DetectionOptions`) exactly
/// as Darknet fits a whole image, so a tile's detections are `detect`'s on that crop. An image
/// that takes a single tile gives exactly `detect`'s result. See `TileMerge` for the merge.
public struct TilingOptions: Sendable, Equatable {
    /// How big the tiles are.
    public enum TileSize: Sendable, Equatable {
        /// DarkHelp's rule: along each axis, `round(side / network side)` tiles (so no tiling
        /// for an image under about 1.5 times the network's size), each enlarged so that
        /// neighbours share `overlap` of a tile.
        case automatic
        /// Tiles of this many pixels (clipped to the image), laid out as SAHI slices:
        /// `overlap` of a tile shared with the next, the last row and column flush with the
        /// image's edge.
        case pixels(width: Int, height: Int)
    }

    public var tileSize: TileSize
    /// The fraction of a tile shared with its neighbour, along both axes (SAHI's
    /// `overlap_width_ratio` / `overlap_height_ratio`), in `0...0.95`.
    public var overlap: Float
    /// Also run the whole image as one input (SAHI's `perform_standard_pred`), for objects larger
    /// than a tile.
    public var includesFullImage: Bool
    /// How detections of different tiles (and of the full image) that overlap are combined.
    public var merge: TileMerge
    /// How their overlap is measured.
    public var matchMetric: TileMatchMetric
    /// Overlaps at or above this are combined (SAHI's `postprocess_match_threshold`).
    public var matchThreshold: Float
    /// Combine overlapping detections whatever their classes (else only the same class).
    public var classAgnostic: Bool

    /// SAHI's defaults: 20 % overlap, a full-image pass, greedy NMM over
    /// intersection-over-smaller at 0.5, per class; DarkHelp's automatic tile size.
    public init(tileSize: TileSize = .automatic, overlap: Float = 0.2, includesFullImage: Bool = true,
                merge: TileMerge = .nmm, matchMetric: TileMatchMetric = .intersectionOverSmaller,
                matchThreshold: Float = 0.5, classAgnostic: Bool = false) {
        self.tileSize = tileSize
        self.overlap = overlap
        self.includesFullImage = includesFullImage
        self.merge = merge
        self.matchMetric = matchMetric
        self.matchThreshold = matchThreshold
        self.classAgnostic = classAgnostic
    }

    /// Throws for tiles of fewer than one pixel, an overlap outside `0...0.95` or a NaN
    /// `matchThreshold`.
    public func validate() throws(ArgumentError) {
        if case .pixels(let width, let height) = tileSize {
            try ArgumentError.require("TilingOptions.tileSize width", width, atLeast: 1)
            try ArgumentError.require("TilingOptions.tileSize height", height, atLeast: 1)
        }
        try ArgumentError.require((0...0.95).contains(overlap), "TilingOptions.overlap", overlap, expected: "a fraction in 0...0.95")
        try ArgumentError.require(!matchThreshold.isNaN, "TilingOptions.matchThreshold", matchThreshold, expected: "a number")
    }
}

/// How overlapping detections from different tiles become one.
///
/// Every detection of every pass (the full image first, then the tiles row by row, each in
/// Darknet's order) is put in its image's pixels; then, from the most confident down (ties in
/// that order), each detection not yet taken keeps its place and takes every later one that
/// comes from **another** pass (each pass was already suppressed by Darknet's own NMS, which is
/// kept as it is), has its class (unless `classAgnostic`) and overlaps it by at least
/// `matchThreshold` under `matchMetric`, measured against the kept box as it was found.
public enum TileMerge: Sendable, Equatable {
    /// Taken detections are dropped (non-maximum suppression).
    case nms
    /// Taken detections are merged into the kept one (SAHI's greedy non-maximum merging): its
    /// box becomes the smallest box around all of them, its confidence and objectness the
    /// largest (its own), its class its own. A box cut by a tile's edge is merged with the
    /// neighbour's part of it.
    case nmm
}

/// How the overlap of two boxes is measured when tiles are merged.
public enum TileMatchMetric: Sendable, Equatable {
    /// Intersection over union.
    case intersectionOverUnion
    /// Intersection over the smaller box's area (SAHI's `IOS`): a part of an object cut by a
    /// tile's edge overlaps the whole object by nearly 1.
    case intersectionOverSmaller
}
