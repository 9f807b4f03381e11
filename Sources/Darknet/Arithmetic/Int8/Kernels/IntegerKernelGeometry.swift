/// The geometry an integer convolution kernel (`Int8Convolution`, `Int8Direct`, `Int16Direct`)
/// is made for: one group, a square kernel, equal strides.
package protocol IntegerKernelGeometry: Sendable {
    /// Traps on a geometry the kernel does not take.
    init(channels: Int, height: Int, width: Int, filters: Int, size: Int, padding: Int, stride: Int)
    var outputHeight: Int { get }
    var outputWidth: Int { get }
}
