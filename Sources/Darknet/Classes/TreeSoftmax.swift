/// Darknet's hierarchical softmax (`softmax_tree` on the CPU, as `forward_softmax_layer` and
/// `forward_region_layer` run it): for each group of a ``ClassTree`` in order, a softmax over
/// the group's entries, repeated for `sets` sets of predictions.
///
/// Group `g` with classes `o ..< o + n` reads, for set `s`, the values
/// `input[o * classSpacing + s * setSpacing + k * stride]` for `k` in `0 ..< n` and writes the
/// same positions of `output`; softmax is Darknet's (``softmax(_:count:temperature:stride:into:)``).
/// Where groups' positions overlap (they do in the CPU `[region]` call of Debian's Darknet,
/// `classSpacing` 1 with a larger `stride`), later groups overwrite earlier ones, as in Darknet.
enum TreeSoftmax {
    /// `[softmax] tree=`: one set of `tree.count` contiguous values.
    static func forwardSoftmaxLayer(_ input: UnsafePointer<Float>, tree: ClassTree, temperature: Float,
                                    into output: UnsafeMutablePointer<Float>) {
        forward(input, tree: tree, sets: 1, setSpacing: 0, classSpacing: 1, stride: 1, temperature: temperature, into: output)
    }

    /// The general form (see the type's description). `input` and `output` may not overlap
    /// unless they are the same buffer and groups do not overlap.
    static func forward(_ input: UnsafePointer<Float>, tree: ClassTree, sets: Int, setSpacing: Int, classSpacing: Int,
                        stride: Int, temperature: Float, into output: UnsafeMutablePointer<Float>) {
        for group in tree.groups {
            for s in 0..<sets {
                let start = group.lowerBound * classSpacing + s * setSpacing
                softmax(input + start, count: group.count, temperature: temperature, stride: stride, into: output + start)
            }
        }
    }
}
