@testable import Darknet

/// What Debian's Darknet (`forward_region_layer`, CPU) does to a `[region] tree=` layer's input,
/// reproduced exactly, quirks included:
///
/// 1. the input is copied; the logistic is applied to x, y and (unless `background`) the
///    objectness of every anchor, at their places in the layer's layout
///    (`(anchor * entries + entry) * cells + cell`, `entries = coords + 1 + classes`);
/// 2. then the tree softmax runs on the *raw input* starting at value `coords + 1` with
///    `sets = anchors * cells`, `setSpacing = 1` and `stride = anchors * cells`: a layout in
///    which entries would be interleaved across anchors and cells, not the layer's. Its groups'
///    windows overlap each other and the box and objectness entries, which it overwrites;
/// 3. its temperature is `l.temperature`, which `parse_region` never sets: 0. So every value it
///    writes is NaN (`x / 0 - max / 0`), and the class entries outside its windows keep their
///    raw values.
///
/// The library does not run this (`RegionSpec.run` computes what Darknet's GPU forward does);
/// the tests use it to show that Debian's reference output is this computation, and decode it
/// with the library's decoder, which reads the layer's own layout.
enum RegionTreeActivation {
    /// Darknet's forward of a `[region]` layer with a class tree; `temperature` is what the layer
    /// holds (Debian's parser leaves it at 0).
    static func forward(_ input: UnsafePointer<Float>, anchors: Int, width: Int, height: Int, coords: Int,
                        classes: Int, background: Bool, tree: ClassTree, temperature: Float,
                        into output: UnsafeMutablePointer<Float>) {
        let cells = width * height
        let entries = coords + 1 + classes
        output.update(from: input, count: anchors * entries * cells)
        for n in 0..<anchors {
            let base = output + n * entries * cells
            VectorKernels.native.activate(base, count: 2 * cells, activation: .logistic)
            if !background { VectorKernels.native.activate(base + coords * cells, count: cells, activation: .logistic) }
        }
        TreeSoftmax.forward(input + coords + 1, tree: tree, sets: anchors * cells, setSpacing: 1, classSpacing: 1,
                            stride: anchors * cells, temperature: temperature, into: output + coords + 1)
    }
}
