import CommandLineKit
import Darknet

/// `--tiles` and its companions: detection on tiles of large images (`TilingOptions`), the
/// same flags for `detect` and `video`.
struct TilingFlags {
    static let options = OptionGroup("tiles", [
        .value("tiles", "auto|WxH", """
            cut large images into tiles, run each, merge what they find (default: off).
            auto: DarkHelp's grid, round(side / network side) tiles along each axis, so images
            under about 1.5x the network's size are not tiled; WxH: tiles of that many pixels
            """),
        .value("tile-overlap", "FRACTION", default: String(TilingOptions().overlap), "of a tile shared with its neighbours"),
        .flag("no-full-image", "skip the pass over the whole image (default: also run it, for large objects)"),
        .value("tile-merge", "nmm|nms", default: "nmm", "merge overlapping boxes into one around them, or keep the best"),
        .value("tile-metric", "ios|iou", default: "ios", "intersection over the smaller box, or over the union"),
        .value("tile-threshold", "0-1", default: String(TilingOptions().matchThreshold),
               "overlap at which boxes of different tiles are combined"),
        .flag("tile-class-agnostic", "combine overlapping boxes of different classes too"),
    ])

    let tiling: TilingOptions?

    init(arguments: inout Arguments) throws {
        let tiles = arguments.string("tiles")
        var options = TilingOptions()
        options.overlap = try arguments.float("tile-overlap", range: 0...0.9)
        options.includesFullImage = !arguments.flag("no-full-image")
        options.classAgnostic = arguments.flag("tile-class-agnostic")
        options.matchThreshold = try arguments.float("tile-threshold", range: 0...1)
        switch arguments.stringOrDefault("tile-merge") {
        case "nmm": options.merge = .nmm
        case "nms": options.merge = .nms
        case let other: throw CLIError("--tile-merge must be nmm or nms, got '\(other ?? "")'")
        }
        switch arguments.stringOrDefault("tile-metric") {
        case "ios": options.matchMetric = .intersectionOverSmaller
        case "iou": options.matchMetric = .intersectionOverUnion
        case let other: throw CLIError("--tile-metric must be ios or iou, got '\(other ?? "")'")
        }
        guard let tiles else {
            for name in ["tile-overlap", "tile-merge", "tile-metric", "tile-threshold"] where arguments.string(name) != nil {
                throw CLIError("--\(name) needs --tiles")
            }
            if !options.includesFullImage || options.classAgnostic {
                throw CLIError("--no-full-image and --tile-class-agnostic need --tiles")
            }
            tiling = nil
            return
        }
        options.tileSize = try Self.tileSize(tiles)
        tiling = options
    }

    /// `auto` or `WxH` (positive integers).
    static func tileSize(_ text: String) throws -> TilingOptions.TileSize {
        if text == "auto" { return .automatic }
        guard let size = pixelSize(text) else {
            throw CLIError("--tiles must be auto or WIDTHxHEIGHT in pixels (e.g. 640x640), got '\(text)'")
        }
        return .pixels(width: size.width, height: size.height)
    }
}
