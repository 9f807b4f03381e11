import CommandLineKit
import Darknet

/// `--tiles` and its companions: detection on tiles of large images (`TilingOptions`), the
/// same flags for `detect` and `video`.
struct TilingFlags {
    static let flagNames: Set<String> = ["tile-class-agnostic", "no-full-image"]
    static let help = """
          --tiles    auto|WxH: cut large images into tiles, run each, merge what they find (default: off).
                     auto: DarkHelp's grid, round(side / network side) tiles along each axis, so images
                     under about 1.5x the network's size are not tiled; WxH: tiles of that many pixels
          --tile-overlap  fraction of a tile shared with its neighbours (default 0.2)
          --no-full-image  skip the pass over the whole image (default: also run it, for large objects)
          --tile-merge  nmm (merge overlapping boxes into one around them, default) or nms (keep the best)
          --tile-metric  ios (intersection over the smaller box, default) or iou
          --tile-threshold  overlap at which boxes of different tiles are combined (default 0.5)
          --tile-class-agnostic  combine overlapping boxes of different classes too
        """

    let tiling: TilingOptions?

    init(arguments: inout Arguments) throws {
        let tiles = arguments.string("tiles")
        var options = TilingOptions()
        options.overlap = try arguments.float("tile-overlap", default: options.overlap, range: 0...0.9)
        options.includesFullImage = !arguments.flag("no-full-image")
        options.classAgnostic = arguments.flag("tile-class-agnostic")
        options.matchThreshold = try arguments.float("tile-threshold", default: options.matchThreshold, range: 0...1)
        switch arguments.string("tile-merge") ?? "nmm" {
        case "nmm": options.merge = .nmm
        case "nms": options.merge = .nms
        case let other: throw CLIError("--tile-merge must be nmm or nms, got '\(other)'")
        }
        switch arguments.string("tile-metric") ?? "ios" {
        case "ios": options.matchMetric = .intersectionOverSmaller
        case "iou": options.matchMetric = .intersectionOverUnion
        case let other: throw CLIError("--tile-metric must be ios or iou, got '\(other)'")
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
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            throw CLIError("--tiles must be auto or WIDTHxHEIGHT in pixels (e.g. 640x640), got '\(text)'")
        }
        return .pixels(width: width, height: height)
    }
}
