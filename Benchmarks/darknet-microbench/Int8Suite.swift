import Darknet
import Foundation

/// The int8 GEMM (`Int8GEMM`, every integer kernel set this CPU runs) against float sgemm on each
/// distinct convolution GEMM shape of the network (`M = filters`, `N = output plane`, `K =
/// channels * size²`), and the 8-bit quantize + im2col that feeds it against the float im2col.
/// (The whole integer convolutions are `conv` rows: `conv Li int8 im2col`, `int8 direct`,
/// `int16 direct`.) `--filter int8` selects them all. The int8 rows time the
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
                for kernels in plan.cpu.supportedIntegerKernels.reversed() {
                    result.append(int8GEMM(layer.index, conv, m: m, n: n, k: k, shape: shape, operations: operations,
                                           kernels: kernels))
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
        }
        return result
    }

    private func int8GEMM(_ index: Int, _ conv: ConvolutionalSpec, m: Int, n: Int, k: Int, shape: String,
                          operations: Double, kernels: IntegerKernels) -> MicroBenchmark {
        MicroBenchmark(
            name: "int8 \(kernels) L\(index)", shape: shape, flops: operations, bytes: 0,
            setUp: {
                var random = SeededRandom(seed: 7)
                let weights = Int8PackedWeights(weights: (0..<m * k).map { _ in random.next(-0.1, 0.1) }, rows: m, depth: k,
                                                limit: plan.cpu.integerKernels.plannedWeightLimit(depth: k))
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
                                          range: range.lowerBound * 16..<min(range.upperBound * 16, n), kernels: kernels)
                    }
                }, tearDown: { blackHole(c[0]); b.deallocate(); release(c) })
            })
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
