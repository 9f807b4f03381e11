@testable import Darknet

extension ReducedKernels {
    /// The SIMD sets of `arithmetic` (every arithmetic if nil) this machine runs. The others are
    /// named on standard output after `test`, each with the architecture its table declares, as
    /// not exercised.
    static func runningSIMDSets(_ arithmetic: Arithmetic?, test: String) -> [ReducedKernels] {
        let simd = allCases.filter { !$0.isPortable && (arithmetic == nil || $0.arithmetic == arithmetic) }
        let running = simdSets(arithmetic, on: CPUFeatures.compiledArchitecture, .running)
        let missing = simd.filter { !running.contains($0) }
        if !missing.isEmpty {
            let named = missing.map { set in
                "\(set) (for \(set.table.map { CPUFeatures.Architecture(kernelArchitecture: $0.pointee.architecture) } ?? .other))"
            }
            print("\(test): not exercised on this CPU (it lacks their extensions, or they are another architecture's): "
                  + named.joined(separator: ", ") + "; this is \(CPUFeatures.current)")
        }
        return running
    }
}
