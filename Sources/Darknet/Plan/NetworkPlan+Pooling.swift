extension NetworkPlan {
    /// Scratch floats a max pool needs: windows wider than 2 are computed separably (a row
    /// pass into `channels x inputHeight x outputWidth`, then a column pass), which makes the
    /// SPP pools (5, 9, 13 at stride 1) cost `O(size)` per output instead of `O(size²)`.
    static func maxpoolWorkspace(_ pool: MaxpoolSpec, input: TensorShape, output: TensorShape, layer: Int) throws(PlanError) -> Int {
        guard MaxpoolKernel.usesRowPass(size: pool.size) else { return 0 }
        let (area, overflowA) = input.height.multipliedReportingOverflow(by: output.width)
        let (count, overflowB) = area.multipliedReportingOverflow(by: input.channels)
        guard !overflowA, !overflowB else { throw PlanError(layer: layer, section: "maxpool", reason: .sizeOverflow) }
        return count
    }
}
