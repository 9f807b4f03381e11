import CDarknetKernels

/// What the two integer direct convolutions share (`Int8Direct`, `Int16Direct`): a stride-1 or
/// stride-2 convolution with a square window over a padded CHW input whose channels are laid out
/// in 4-byte units of `lanes` channels (quads of 8-bit codes, pairs of 16-bit ones), the weights'
/// k order that matches that layout, and the GEMM over it.
package protocol IntegerDirectCore: IntegerKernelGeometry {
    var channels: Int { get }
    var height: Int { get }
    var width: Int { get }
    var filters: Int { get }
    var size: Int { get }
    var padding: Int { get }
    var stride: Int { get }
    /// Channels in one 4-byte unit of the layout.
    static var lanes: Int { get }
    /// Largest K (`depth`) the path takes.
    static var maximumDepth: Int { get }
    /// Bytes of each thread's panel.
    var panelBytes: Int { get }
}

extension IntegerDirectCore {
    /// 4-byte units of channels in the layout (the last one may be partly zero).
    package var units: Int { (channels + Self.lanes - 1) / Self.lanes }
    package var paddedHeight: Int { height + 2 * padding }
    package var paddedWidth: Int { width + 2 * padding }
    package var outputHeight: Int { (paddedHeight - size) / stride + 1 }
    package var outputWidth: Int { (paddedWidth - size) / stride + 1 }
    /// K of the GEMM in values: whole units of channels times the kernel area.
    package var depth: Int { units * Self.lanes * size * size }

    /// Traps on a geometry the direct kernels do not take, naming the type.
    func checkGeometry() {
        let path = "\(Self.self)"
        precondition(channels >= 1 && height >= 1 && width >= 1 && filters >= 1 && size >= 1 && padding >= 0
                     && (stride == 1 || stride == 2), "\(path): bad geometry")
        precondition(outputHeight >= 1 && outputWidth >= 1, "\(path): the kernel is larger than the padded input")
        precondition(size <= Int(SWIFTDARKNET_INT8_DIRECT_MAX_SIZE), "\(path): a \(size)x\(size) kernel is too large")
        precondition(depth <= Self.maximumDepth, "\(path): K = \(depth) exceeds \(Self.maximumDepth)")
    }

    /// Reorders Darknet's row-major `filters x (channels * size²)` weights so k runs in this
    /// path's `((unit * size + row) * size + column) * lanes + channel % lanes`, zero for the
    /// channels a last unit lacks (`filters x depth`). In place when the channels fill whole
    /// units (always, for the geometries the paths take: each row is then only permuted, through
    /// one row of scratch), so a layer's weights are never in memory twice at load; else by a copy.
    package func reorder(_ weights: inout [Float]) {
        let lanes = Self.lanes, area = size * size, rowLength = channels * area
        precondition(weights.count == filters * rowLength, "direct convolution: \(weights.count) weights, expected \(filters * rowLength)")
        guard channels % lanes == 0 else {
            weights = reordered(weights)
            return
        }
        var row = [Float](repeating: 0, count: rowLength)
        weights.withUnsafeMutableBufferPointer { all in
            row.withUnsafeMutableBufferPointer { row in
                for filter in 0..<filters {
                    let start = filter * rowLength
                    for i in 0..<rowLength { row[i] = all[start + i] }
                    for channel in 0..<channels {
                        let target = start + channel / lanes * area * lanes + channel % lanes
                        for offset in 0..<area { all[target + offset * lanes] = row[channel * area + offset] }
                    }
                }
            }
        }
    }

    /// `reorder(_:)` into a new `filters x depth` array (the channels do not fill whole units).
    private func reordered(_ weights: [Float]) -> [Float] {
        let lanes = Self.lanes, area = size * size, rowLength = channels * area, depth = depth
        var result = [Float](repeating: 0, count: filters * depth)
        for filter in 0..<filters {
            for channel in 0..<channels {
                let unit = channel / lanes, lane = channel % lanes
                for offset in 0..<area {
                    result[filter * depth + (unit * area + offset) * lanes + lane] = weights[filter * rowLength + channel * area + offset]
                }
            }
        }
        return result
    }

    /// The GEMM over `layout`, split over threads by 16-column strips of the output's columns:
    /// `body(a, input, panel, columns)` on each worker's panel (`panels`, `panelStride` bytes
    /// apart).
    func multiply(_ weights: Int8PackedWeights, layout: UnsafeMutablePointer<UInt8>, panels: UnsafeMutableRawPointer,
                  panelStride: Int, split: ThreadSplit,
                  _ body: (UnsafePointer<Int8>, UnsafePointer<swiftdarknet_int8_direct_input>,
                           UnsafeMutablePointer<UInt8>, Range<Int>) -> Void) {
        precondition(panelStride >= panelBytes, "\(Self.self): panels \(panelStride) bytes apart, each needs \(panelBytes)")
        var input = swiftdarknet_int8_direct_input(layout: layout, quads: units, padded_height: paddedHeight,
                                                   padded_width: paddedWidth, size: size, stride: stride)
        let columns = outputHeight * outputWidth
        weights.withPacked { a in
            withUnsafePointer(to: &input) { input in
                split((columns + 15) / 16) { strips, worker in
                    let panel = (panels + worker * panelStride).assumingMemoryBound(to: UInt8.self)
                    body(a, input, panel, strips.lowerBound * 16..<min(strips.upperBound * 16, columns))
                }
            }
        }
    }
}
