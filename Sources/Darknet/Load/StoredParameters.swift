/// What a `.weights` file stores for each layer, in file order and before batch-norm folding:
/// the loader compares the file's size with it before reading a single parameter.
///
/// Each layer type gives its own order (`Layer.storedParameters`), which is Darknet's `load_weights`.
extension LayerPlan {
    /// The named float arrays this layer reads, in file order (empty for weightless layers).
    var storedParameters: [(name: String, count: Int)] { spec.kind.layer.storedParameters(self) }
}

extension WeightsReader {
    /// Fails unless the file holds exactly the bytes `layers` need after the header just read:
    /// a shorter file with the `.truncated` error reading would stop at (the layer and parameter
    /// the file ends in), a longer one with `.trailingBytes`; both carry the two sizes
    /// (`WeightsError.sizeMismatch`). So the weights of another cfg are reported as a size mismatch
    /// before any of their values, which would fail on whatever happened to be misread.
    func checkSize(for layers: [LayerPlan]) throws(WeightsError) {
        var cursor = offset
        var shortAt: (layer: Int, parameter: String, offset: Int, bytes: Int)?
        var wholeLayers: Int?
        for layer in layers {
            let stored = layer.storedParameters
            // The file ends exactly after the previous layer's parameters (and this one has some).
            if shortAt == nil, cursor == size, cursor > offset, stored.contains(where: { $0.count > 0 }) {
                wholeLayers = layer.index
            }
            for (name, count) in stored {
                let (bytes, overflow) = count.multipliedReportingOverflow(by: 4)
                let (end, endOverflow) = cursor.addingReportingOverflow(bytes)
                if shortAt == nil, overflow || endOverflow || end > size {
                    shortAt = (layer.index, name, cursor, overflow ? Int.max : bytes)
                }
                cursor = overflow || endOverflow ? Int.max : end
            }
        }
        let mismatch = WeightsSizeMismatch(neededBytes: cursor, headerBytes: offset, fileBytes: size, wholeLayers: wholeLayers)
        if let shortAt {
            throw WeightsError(file: file, layer: shortAt.layer, offset: shortAt.offset,
                               reason: .truncated(parameter: shortAt.parameter, neededBytes: shortAt.bytes,
                                                  availableBytes: size - shortAt.offset),
                               sizeMismatch: mismatch)
        }
        if cursor < size {
            throw WeightsError(file: file, layer: nil, offset: cursor, reason: .trailingBytes(count: size - cursor),
                               sizeMismatch: mismatch)
        }
    }
}
