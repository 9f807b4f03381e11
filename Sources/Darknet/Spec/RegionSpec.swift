/// `[region]`: the YOLOv2 detection head.
///
/// Its input holds, for each of the `num` anchors, `coords + 1 + classes` planes: box x, y,
/// w, h, objectness, then the class scores (`anchor * (classes + 5) + entry`, as Darknet's
/// `entry_index`). The forward pass applies the logistic to x, y and objectness and, with
/// `softmax=1`, a softmax over each anchor's classes (the logistic otherwise).
public struct RegionSpec: Sendable, Equatable {
    /// Number of classes (`classes`, default 20).
    public var classes: Int
    /// Anchors per cell (`num`, default 1).
    public var num: Int
    /// Anchor (width, height) pairs in grid cells (`anchors`), `num` of them; empty when the
    /// cfg gives none (Darknet's default 0.5, 0.5 for each, see `anchor(_:)`).
    public var anchors: [(width: Float, height: Float)]
    /// Softmax over the classes of each anchor (`softmax=1`) instead of the logistic.
    public var softmax: Bool

    /// Anchor `n`'s size in grid cells.
    public func anchor(_ n: Int) -> (width: Float, height: Float) {
        anchors.isEmpty ? (0.5, 0.5) : anchors[n]
    }

    /// Box entries per anchor before objectness (`coords`; only 4 is supported).
    public var coords: Int { 4 }
    /// Planes per anchor: `coords + 1 + classes`.
    public var entries: Int { coords + 1 + classes }

    public static func == (a: RegionSpec, b: RegionSpec) -> Bool {
        a.classes == b.classes && a.num == b.num && a.softmax == b.softmax && a.anchors.count == b.anchors.count
            && zip(a.anchors, b.anchors).allSatisfy { $0.width == $1.width && $0.height == $1.height }
    }
}

/// `[reorg]`: YOLOv2's passthrough rearrangement, Darknet's own permutation.
///
/// The output is `W/stride x H/stride x C*stride²`, but its values are not a standard
/// space-to-depth: Darknet's `forward_reorg_layer` calls `reorg_cpu` with the *input*
/// dimensions and `forward=0`, so output value `(k, j, i)` of a `W x H x C` grid (the output
/// buffer read with the input's shape) is input value `(k % (C/s²), j*s + (k/(C/s²)) / s,
/// i*s + (k/(C/s²)) % s)` of a `sW x sH x C/s²` grid (the input buffer read with that shape).
///
/// `reverse=1` applies the inverse permutation (`W*s x H*s x C/s²`); `flatten=1` instead
/// reorders the values from planar `C x (H*W)` to interleaved `(H*W) x C` (back with
/// `reverse`) under the shape the stride gives; `extra=N` instead outputs the input as a flat
/// vector followed by `N` zeros (`go.cfg`).
public struct ReorgSpec: Sendable, Equatable {
    /// Block side (`stride`, default 1).
    public var stride: Int
    /// The inverse rearrangement (`reverse`, default 0).
    public var reverse: Bool = false
    /// Interleave channels instead of moving blocks (`flatten`, default 0).
    public var flatten: Bool = false
    /// Zeros appended to a flat copy of the input (`extra`, default 0).
    public var extra: Int = 0
}
