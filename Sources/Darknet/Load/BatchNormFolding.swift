import Foundation

/// Batch norm folded into the layer before it, as each Darknet computes it at inference:
/// `factor = scale / (sqrt(variance) + 1e-6)` in the original, `scale / sqrt(variance + 1e-5)`
/// in AlexeyAB's fork; `weight' = weight * factor`, `bias' = bias - mean * factor`.
enum BatchNormFolding {
    /// Epsilon Darknet adds to the standard deviation (not the variance) at inference.
    static let originalEpsilon: Float = 0.000001
    /// Epsilon AlexeyAB's fork adds to the variance.
    static let alexeyABEpsilon: Float = 0.00001

    /// The three arrays Darknet stores after a layer's biases (or weights) when it normalises.
    struct Statistics {
        let scales: [Float]
        let means: [Float]
        let variances: [Float]
        /// Where the variances start in the file, for errors about the folded values.
        let varianceOffset: Int

        init(scales: [Float], means: [Float], variances: [Float], varianceOffset: Int = 0) {
            self.scales = scales
            self.means = means
            self.variances = variances
            self.varianceOffset = varianceOffset
        }

        /// Reads `count` scales, rolling means and rolling variances; a negative variance is an
        /// error at its byte.
        init(reading reader: inout WeightsReader, count: Int, prefix: String = "") throws(WeightsError) {
            scales = try reader.readFloats(count, parameter: prefix + "scales")
            means = try reader.readFloats(count, parameter: prefix + "rolling_mean")
            varianceOffset = reader.offset
            variances = try reader.readFloats(count, parameter: prefix + "rolling_variance")
            if let bad = variances.firstIndex(where: { $0 < 0 }) {
                throw reader.error(.negativeVariance(element: bad, value: variances[bad]), at: varianceOffset + bad * 4)
            }
        }
    }

    /// Each output's factor, with `biases` shifted to `bias - mean * factor`.
    static func factors(biases: inout [Float], _ statistics: Statistics, dialect: DarknetDialect) -> [Float] {
        (0..<biases.count).map { f in
            let deviation = switch dialect {
            case .alexeyAB: sqrtf(statistics.variances[f] + alexeyABEpsilon)
            case .original: sqrtf(statistics.variances[f]) + originalEpsilon
            }
            let factor = statistics.scales[f] / deviation
            biases[f] -= statistics.means[f] * factor
            return factor
        }
    }

    /// Folds into row-major `biases.count x rowLength` weights and their biases.
    static func fold(weights: inout [Float], biases: inout [Float], rowLength: Int, _ statistics: Statistics,
                     dialect: DarknetDialect) {
        let factors = factors(biases: &biases, statistics, dialect: dialect)
        weights.withUnsafeMutableBufferPointer { w in
            for (f, factor) in factors.enumerated() {
                let row = w.baseAddress! + f * rowLength
                for i in 0..<rowLength { row[i] *= factor }
            }
        }
    }

    /// Fails with `.nonFinite` at the variances if folding overflowed (e.g. variance 0 with a huge scale).
    static func checkFinite(_ arrays: [Float]..., what: String, reader: WeightsReader,
                            _ statistics: Statistics) throws(WeightsError) {
        for values in arrays {
            if let bad = firstNonFinite(values) {
                throw reader.error(.nonFinite(parameter: what, element: bad), at: statistics.varianceOffset)
            }
        }
    }
}
