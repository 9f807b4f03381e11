import Darknet
import Foundation

/// The int8 GEMM (`Int8GEMM`, every variant this CPU runs) against float sgemm on each distinct
/// convolution GEMM shape of the network (`M = filters`, `N = output plane`, `K = channels *
/// size²`), the 8-bit quantize + im2col that feeds it against the float im2col, and the whole
/// int8 convolution (`int8 conv`) against the float paths of the `conv` rows. `--filter int8`
/// selects them all; `--filter int16` the same convolutions in 16-bit integers (`int16 direct
/// conv`, where `.int16Direct` computes them: the early layers' path). The int8 rows time the
/// GEMM with its fused epilogue (bias, the layer's activation if fused, float output), the sgemm
/// rows the bare product; both read operands packed/laid out before the timed region. Their
/// GFLOPS column is 2·M·N·K per second (for int8: GOPS). Threads split the columns as the
/// forward pass would (16-column strips; sgemm threads inside OpenBLAS).
extension Suites {
    func int8() -> [MicroBenchmark] {
        var result: [MicroBenchmark] = []
        var seen: Set<String> = [], seenGeometries: Set<String> = []
        for layer in plan.layers {
            guard case .convolutional(let conv) = layer.spec.kind, conv.groups == 1, conv.strideX == conv.strideY,
                  conv.dilation == 1 else { continue }
            let m = conv.filters, n = layer.outputShape.planeSize
            let k = layer.inputShape.channels * conv.size * conv.size
            let shape = "M=\(m) N=\(n) K=\(k)"
            let input = layer.inputShape
            let geometry = "\(input.channels)x\(input.height)x\(input.width) \(conv.size)/\(conv.strideX) p\(conv.padding) -> \(m)"
            guard seenGeometries.insert(geometry).inserted else { continue }  // the convolution rows once per geometry
            let operations = 2 * Double(m) * Double(n) * Double(k)
            // The GEMM rows once per GEMM shape (a 3x3/2 layer can share one with a 3x3/1 layer).
            if seen.insert(shape).inserted {
                for variant in Int8Variant.supported.reversed() {
                    result.append(int8GEMM(layer.index, conv, m: m, n: n, k: k, shape: shape, operations: operations,
                                           variant: variant))
                }
                result.append(MicroBenchmark(
                    name: "int8 sgemm L\(layer.index)", shape: shape, flops: operations, bytes: 0,
                    setUp: { [threads = split.threads] in
                        let a = randomBuffer(m * k, seed: 1), b = randomBuffer(k * n, seed: 2), c = alignedBuffer(m * n)
                        BLAS.setThreads(threads)
                        return Fixture(body: { BLAS.sgemm(m: m, n: n, k: k, a: a, lda: k, b: b, ldb: n, c: c, ldc: n) },
                                       tearDown: { BLAS.setThreads(1); blackHole(c[0]); release(a, b, c) })
                    }))
            }
            if !(conv.size == 1 && conv.strideX == 1 && conv.padding == 0) {
                result.append(int8Im2col(layer, conv, k: k, n: n))
            }
            result.append(int8Convolution(layer, conv))
            // Also where the planner keeps im2col (narrow outputs), to show why.
            if Int8Direct.computes(size: conv.size, stride: conv.strideX, padding: conv.padding, channels: input.channels) {
                result.append(int8DirectConvolution(layer, conv))
            }
            if Int16Direct.suits(size: conv.size, stride: conv.strideX, padding: conv.padding, channels: input.channels,
                                 outputWidth: layer.outputShape.width) {
                result.append(int16DirectConvolution(layer, conv))
            }
        }
        return result
    }

    private func int8GEMM(_ index: Int, _ conv: ConvolutionalSpec, m: Int, n: Int, k: Int, shape: String,
                          operations: Double, variant: Int8Variant) -> MicroBenchmark {
        MicroBenchmark(
            name: "int8 \(variant) L\(index)", shape: shape, flops: operations, bytes: 0,
            setUp: {
                var random = SeededRandom(seed: 7)
                let weights = Int8PackedWeights(weights: (0..<m * k).map { _ in random.next(-0.1, 0.1) }, rows: m, depth: k,
                                                limit: Int8Variant.plannedWeightLimit(depth: k))
                let input = Int8TensorQuantization(minimum: -0.5, maximum: 4)
                let activation = Int8Epilogue.fuses(conv.activation) ? conv.activation : .linear
                let epilogue = Int8Epilogue(requantization: weights.requantization(input: input),
                                            bias: (0..<m).map { _ in random.next(-0.1, 0.1) }, activation: activation)
                let bytes = Int8Im2col.packedBytes(depth: k, columns: n)
                let b = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes)
                for i in 0..<bytes { b[i] = UInt8(random.next() * 256) }
                let c = alignedBuffer(m * n)
                let strips = (n + 15) / 16
                return Fixture(body: {
                    split(strips) { range, _ in
                        Int8GEMM.multiply(weights, b, columns: n, epilogue: epilogue, into: c, rowStride: n,
                                          range: range.lowerBound * 16..<min(range.upperBound * 16, n), variant: variant)
                    }
                }, tearDown: { blackHole(c[0]); b.deallocate(); release(c) })
            })
    }

    /// The whole int8 convolution from a float input, as a float-in, float-out layer would run
    /// it: quantize the input, `Int8Convolution` (8-bit im2col or packing, GEMM, bias and
    /// activation fused), split over the threads. GFLOPS are Darknet's FLOPs of the layer, as for
    /// the float `conv` rows (`--filter conv`).
    private func int8Convolution(_ layer: LayerPlan, _ conv: ConvolutionalSpec) -> MicroBenchmark {
        let input = layer.inputShape
        return convolutionRow("int8 conv", layer, conv, setUp: {
            let convolution = Int8Convolution(channels: input.channels, height: input.height, width: input.width,
                                              filters: conv.filters, size: conv.size, stride: conv.strideX,
                                              padding: conv.padding)
            let (weights, quantization, epilogue) = Self.int8Operands(conv, depth: convolution.depth)
            let x = randomBuffer(input.count, seed: 3, low: -0.5, high: 4)
            let codes = UnsafeMutablePointer<UInt8>.allocate(capacity: input.count)
            let workspace = UnsafeMutablePointer<UInt8>.allocate(capacity: convolution.workspaceBytes)
            let y = alignedBuffer(conv.filters * convolution.columns)
            return Fixture(body: {
                split(input.channels) { channels, _ in
                    let offset = channels.lowerBound * input.height * input.width
                    quantization.quantize(x + offset, count: channels.count * input.height * input.width, into: codes + offset)
                }
                convolution.run(input: codes, quantization: quantization, weights: weights, epilogue: epilogue,
                                output: y, workspace: workspace, split: split)
            }, tearDown: { blackHole(y[0]); codes.deallocate(); workspace.deallocate(); release(x, y) })
        })
    }

    /// Seeded random int8 weights for `conv` (K = `depth`, quantized as a plan on this CPU would),
    /// a fixed input quantization and the epilogue with random biases and the layer's activation
    /// (linear where it is not fused).
    private static func int8Operands(_ conv: ConvolutionalSpec, depth: Int)
        -> (Int8PackedWeights, Int8TensorQuantization, Int8Epilogue) {
        var random = SeededRandom(seed: 9)
        let weights = Int8PackedWeights(weights: (0..<conv.filters * depth).map { _ in random.next(-0.1, 0.1) },
                                        rows: conv.filters, depth: depth, limit: Int8Variant.plannedWeightLimit(depth: depth))
        let quantization = Int8TensorQuantization(minimum: -0.5, maximum: 4)
        let activation = Int8Epilogue.fuses(conv.activation) ? conv.activation : .linear
        let epilogue = Int8Epilogue(requantization: weights.requantization(input: quantization),
                                    bias: (0..<conv.filters).map { _ in random.next(-0.1, 0.1) }, activation: activation)
        return (weights, quantization, epilogue)
    }

    /// The same convolution by the direct path (`Int8Direct`, `.int8Direct`): quantize, lay out
    /// in padded channel quads, GEMM panels copied from the layout; same weights and epilogue.
    private func int8DirectConvolution(_ layer: LayerPlan, _ conv: ConvolutionalSpec) -> MicroBenchmark {
        let input = layer.inputShape
        return convolutionRow("int8 direct conv", layer, conv, setUp: { [threads = split.threads] in
            let direct = Int8Direct(channels: input.channels, height: input.height, width: input.width,
                                    filters: conv.filters, size: conv.size, padding: conv.padding)
            let (weights, quantization, epilogue) = Self.int8Operands(conv, depth: direct.depth)
            let x = randomBuffer(input.count, seed: 3, low: -0.5, high: 4)
            let codes = UnsafeMutablePointer<UInt8>.allocate(capacity: input.count)
            let layout = UnsafeMutablePointer<UInt8>.allocate(capacity: direct.layoutBytes)
            let (panels, panelStride) = Self.panels(bytes: direct.panelBytes, threads: threads)
            let y = alignedBuffer(conv.filters * direct.outputHeight * direct.outputWidth)
            return Fixture(body: {
                split(input.channels) { channels, _ in
                    let offset = channels.lowerBound * input.height * input.width
                    quantization.quantize(x + offset, count: channels.count * input.height * input.width, into: codes + offset)
                }
                direct.run(input: codes, quantization: quantization, weights: weights, epilogue: epilogue, output: y,
                           layout: layout, panels: panels, panelStride: panelStride, split: split)
            }, tearDown: { blackHole(y[0]); codes.deallocate(); layout.deallocate(); panels.deallocate(); release(x, y) })
        })
    }

    /// The same convolution in 16-bit integers (`Int16Direct`, `.int16Direct`): the float input
    /// quantized as it is laid out in channel pairs, weights with as many bits as K allows.
    private func int16DirectConvolution(_ layer: LayerPlan, _ conv: ConvolutionalSpec) -> MicroBenchmark {
        let input = layer.inputShape
        return convolutionRow("int16 direct conv", layer, conv, setUp: { [threads = split.threads] in
            let direct = Int16Direct(channels: input.channels, height: input.height, width: input.width,
                                     filters: conv.filters, size: conv.size, padding: conv.padding)
            var random = SeededRandom(seed: 9)
            let weights = Int16PackedWeights(weights: (0..<conv.filters * direct.depth).map { _ in random.next(-0.1, 0.1) },
                                             rows: conv.filters, depth: direct.depth)
            let quantization = Int16Quantization(magnitude: 4, limit: Int16Quantization.limit(depth: direct.depth))
            let activation = Int8Epilogue.fuses(conv.activation) ? conv.activation : .linear
            let epilogue = Int8Epilogue(requantization: weights.requantization(input: quantization),
                                        bias: (0..<conv.filters).map { _ in random.next(-0.1, 0.1) }, activation: activation)
            let x = randomBuffer(input.count, seed: 3, low: -0.5, high: 4)
            let layout = UnsafeMutablePointer<UInt8>.allocate(capacity: direct.layoutBytes)
            let (panels, panelStride) = Self.panels(bytes: direct.panelBytes, threads: threads)
            let y = alignedBuffer(conv.filters * direct.outputHeight * direct.outputWidth)
            return Fixture(body: {
                direct.run(input: x, quantization: quantization, weights: weights, epilogue: epilogue, output: y,
                           layout: layout, panels: panels, panelStride: panelStride, split: split)
            }, tearDown: { blackHole(y[0]); layout.deallocate(); panels.deallocate(); release(x, y) })
        })
    }

    /// A row timing a whole convolution of `layer` by `path`, Darknet's FLOPs of the layer in its
    /// GFLOPS column, its shape as `32x208x208 3x3/1 -> 64 leaky`.
    private func convolutionRow(_ path: String, _ layer: LayerPlan, _ conv: ConvolutionalSpec,
                                setUp: @escaping () -> Fixture) -> MicroBenchmark {
        let input = layer.inputShape
        return MicroBenchmark(
            name: "\(path) L\(layer.index)",
            shape: "\(input.channels)x\(input.height)x\(input.width) \(conv.size)x\(conv.size)/\(conv.strideX) -> \(conv.filters) \(conv.activation.rawValue)",
            flops: Double(layer.flops), bytes: 0, setUp: setUp)
    }

    /// One panel of `bytes` per thread for a direct path, 64-byte aligned, and their distance.
    private static func panels(bytes: Int, threads: Int) -> (UnsafeMutableRawPointer, stride: Int) {
        let stride = (bytes + 63) / 64 * 64
        return (UnsafeMutableRawPointer.allocate(byteCount: stride * threads, alignment: 64), stride)
    }

    /// Quantizing the float input to 8 bits and the packed 8-bit im2col of it, one thread.
    private func int8Im2col(_ layer: LayerPlan, _ conv: ConvolutionalSpec, k: Int, n: Int) -> MicroBenchmark {
        let input = layer.inputShape
        return MicroBenchmark(
            name: "int8 quantize+im2col L\(layer.index)",
            shape: "\(input.channels)x\(input.height)x\(input.width) \(conv.size)x\(conv.size)/\(conv.strideX)",
            flops: 0, bytes: Double(input.count) * 5 + Double(Int8Im2col.packedBytes(depth: k, columns: n)),
            setUp: {
                let x = randomBuffer(input.count, seed: 3, low: -0.5, high: 4)
                let quantization = Int8TensorQuantization(minimum: -0.5, maximum: 4)
                let codes = UnsafeMutablePointer<UInt8>.allocate(capacity: input.count)
                let packed = UnsafeMutablePointer<UInt8>.allocate(capacity: Int8Im2col.packedBytes(depth: k, columns: n))
                return Fixture(body: {
                    quantization.quantize(x, count: input.count, into: codes)
                    Int8Im2col.im2col(codes, channels: input.channels, height: input.height, width: input.width,
                                      size: conv.size, stride: conv.strideX, padding: conv.padding,
                                      zeroPoint: quantization.zeroPoint, into: packed)
                }, tearDown: { blackHole(packed[0]); codes.deallocate(); packed.deallocate(); release(x) })
            })
    }
}
