@testable import Darknet

extension NetworkPlan {
    /// Each convolution after the network input's, beside the same layer in `float`, a float32
    /// plan of the same network: what a 16-bit plan's rules are checked against.
    func convolutionsAfterTheInput(beside float: NetworkPlan) -> [(layer: LayerPlan, float: LayerPlan)] {
        Array(zip(layers.filter { $0.algorithm != nil }, float.layers.filter { $0.algorithm != nil }).dropFirst())
    }

    /// The convolutions after the input's that `float` computes by its sliding window.
    func slidingWindowLayers(beside float: NetworkPlan) -> [LayerPlan] {
        convolutionsAfterTheInput(beside: float).filter { $0.float.algorithm == .slidingWindow }.map(\.layer)
    }
}
