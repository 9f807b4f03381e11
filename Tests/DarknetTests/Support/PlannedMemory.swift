@testable import Darknet

/// Bytes of per-thread scratch a 1x1 layer of these sizes adds to the planned memory where the
/// planner takes `.pointwise` (`PointwiseConvolution.beatsTheBLAS`), none where it takes the BLAS.
func pointwiseScratchBytes(channels: Int, filters: Int, plane: Int) -> Int {
    PointwiseConvolution.beatsTheBLAS
        ? PointwiseConvolution.scratchCount(channels: channels, filters: filters, plane: plane) * MemoryLayout<Float>.size
        : 0
}
