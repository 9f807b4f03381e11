@testable import Darknet

/// Bytes of per-thread scratch a 1x1 layer of these sizes adds to the planned memory where the
/// planner takes `.pointwise` on this CPU (`PointwiseConvolution.beatsTheBLAS`), none where it
/// takes the BLAS.
public func pointwiseScratchBytes(channels: Int, filters: Int, plane: Int) -> Int {
    let cpu = CPUFeatures.current
    guard cpu.vectorKernels == .avx512, !cpu.blas.hasAVX512Kernels else { return 0 }
    let positions = PointwiseConvolution.chunks(channels: channels, filters: filters, plane: plane, threads: 1).positions
    return positions * (channels + filters) * MemoryLayout<Float>.size
}
