import CommandLineKit
import Darknet
import Foundation

extension PrecisionFlags {
    /// Loads the network of `spec` and `weights` in the precision the flags ask for (int8 is
    /// calibrated first, on images fitted to the input as by `letterbox`), writing the
    /// calibration's progress and the int8 summary to standard error.
    func network(spec: NetworkSpec, weights: URL, plan: PlanOptions, letterbox: Bool = true, threads: Int) throws -> Network {
        let log = { (line: String) in FileHandle.standardError.write(Data("swift-darknet: \(line)\n".utf8)) }
        let options = try options(plan, spec: spec, float: { try Network(spec: spec, weights: weights, options: plan) },
                                  letterbox: letterbox, threads: threads, log: log)
        let network = try Network(spec: spec, weights: weights, options: options)
        if let summary = summary(of: network.plan) { log(summary) }
        return network
    }
}
