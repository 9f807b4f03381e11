import Darknet
import Foundation

/// Every micro-benchmark for one network plan, in table order.
struct Suites {
    let plan: NetworkPlan
    let inputSize: Int
    /// How the convolution paths spread over threads: as the forward pass does, with the BLAS
    /// single-threaded inside each chunk (only the bare sgemm benchmarks thread inside the BLAS).
    let split: ThreadSplit

    /// Every benchmark, sgemm last: only those run OpenBLAS with its own threads, which spin for
    /// a while after each call (about 0.13 s) and would take a core from whatever ran next.
    func all() -> [MicroBenchmark] {
        convolutionPath() + im2colBenchmarks() + activations() + pooling() + upsampling()
            + routes() + shortcuts() + [letterbox()] + pixelInputs() + [nms()] + int8() + sgemm()
    }

    /// One GEMM per distinct convolution shape: `M = filters / groups`, `N = outH * outW`,
    /// `K = channels / groups * size * size` (the im2col formulation).
    func sgemm() -> [MicroBenchmark] {
        var result = DistinctBenchmarks()
        for layer in plan.layers {
            // Per-axis strides and dilation take the general im2col path only: not benchmarked here.
            guard case .convolutional(let conv) = layer.spec.kind, conv.strideX == conv.strideY, conv.dilation == 1 else { continue }
            let m = conv.filters / conv.groups
            let n = layer.outputShape.planeSize
            let k = layer.inputShape.channels / conv.groups * conv.size * conv.size
            let groups = conv.groups
            let shape = "M=\(m) N=\(n) K=\(k)" + (groups > 1 ? " x\(groups) groups" : "")
            guard result.isNew(shape) else { continue }
            result.append(key: shape, MicroBenchmark(
                name: "sgemm L\(layer.index)", shape: shape,
                flops: 2 * Double(m) * Double(n) * Double(k) * Double(groups),
                bytes: 0,
                setUp: { [threads = split.threads] in
                    let a = randomBuffer(m * k * groups, seed: 1), b = randomBuffer(k * n * groups, seed: 2)
                    let c = alignedBuffer(m * n * groups)
                    BLAS.setThreads(threads)
                    return Fixture(body: {
                        for g in 0..<groups {
                            BLAS.sgemm(m: m, n: n, k: k, a: a + g * m * k, lda: k, b: b + g * k * n, ldb: n,
                                       c: c + g * m * n, ldc: n)
                        }
                    }, tearDown: { BLAS.setThreads(1); blackHole(c[0]); release(a, b, c) })
                }))
        }
        return result.benchmarks
    }

    /// Every algorithm of the planner's list (`ConvolutionChoice.rules`) that computes each
    /// distinct convolution shape, as the forward pass runs it, bias and activation included,
    /// whether or not the planner picks it there (`*` marks the one it does): the float paths,
    /// and the integer ones with a fixed input quantization (`int8`, `int16`: the layers an int8
    /// plan runs in integers), and the bfloat16 and float16 ones on each kernel set of theirs the
    /// CPU runs (`[set]` after the name where it runs several). The sliding window also with the
    /// 2x2/2 max pool after it in the same pass, where the plan fuses it. GFLOPS are Darknet's
    /// (direct convolution) FLOPs over the time, so the paths compare directly.
    func convolutionPath() -> [MicroBenchmark] {
        var result = DistinctBenchmarks()
        let quantization = Int8TensorQuantization(minimum: -0.5, maximum: 4), integerKernels = plan.cpu.integerKernels
        for layer in plan.layers {
            // Per-axis strides and dilation take the general im2col path only: not benchmarked here.
            guard case .convolutional(let conv) = layer.spec.kind, conv.strideX == conv.strideY, conv.dilation == 1 else { continue }
            let input = layer.inputShape, output = layer.outputShape
            let shape = "\(input.channels)x\(input.height)x\(input.width) \(conv.size)x\(conv.size)/\(conv.strideX) -> \(output.channels) \(conv.activation.rawValue)"
            guard result.isNew(shape) else { continue }
            let shapes = ConvolutionShapes(conv: conv, input: input, output: output)
            let fusesPool = plan.fusibleMaxpools.contains(layer.index + 1)
            let eightBit = Int8LayerQuantization(
                input: quantization, variant: integerKernels,
                weightLimit: integerKernels.plannedWeightLimit(depth: input.channels * conv.size * conv.size))
            var sixteenBit = eightBit
            sixteenBit.sixteenBitMagnitude = 4
            for arithmetic in [nil, eightBit, sixteenBit] {
                let candidate = ConvolutionCandidate(shapes: shapes, cpu: plan.cpu, integer: arithmetic)
                for method in ConvolutionChoice.alternatives(candidate) where method.algorithm.isInt8 == (arithmetic != nil) {
                    let planned = layer.algorithm == method.algorithm
                    var benchmark = convolution(layer, shape: shape, method: method.init(candidate), pooled: false)
                    benchmark.planned = planned && !(method.algorithm == ConvolutionAlgorithm.slidingWindow && fusesPool)
                    result.append(key: shape, benchmark)
                    if method.algorithm == ConvolutionAlgorithm.slidingWindow && fusesPool {
                        benchmark = convolution(layer, shape: shape, method: method.init(candidate), pooled: true)
                        benchmark.planned = planned
                        result.append(key: shape, benchmark)
                    }
                }
            }
            // The bfloat16 and float16 algorithms, on each set with products in them this CPU runs
            // (named when there are several: arm64's BFDOT and BFMMLA).
            for arithmetic in [Arithmetic.bfloat16, .float16] {
                let sets = ReducedKernels.simdSets(arithmetic, on: plan.cpu.architecture, plan.cpu.extensions)
                for set in sets {
                    let reduced = ConvolutionCandidate(shapes: shapes, cpu: plan.cpu, arithmetic: arithmetic, reducedKernels: set)
                    let planned = set == plan.cpu.reducedKernels(for: arithmetic)
                    for method in ConvolutionChoice.alternatives(reduced) where method.algorithm.arithmetic == arithmetic {
                        var benchmark = convolution(layer, shape: shape, method: method.init(reduced), pooled: false,
                                                    kernelSet: sets.count > 1 ? set.description : nil)
                        benchmark.planned = planned && layer.algorithm == method.algorithm
                        result.append(key: shape, benchmark)
                    }
                }
            }
        }
        return result.benchmarks
    }

    /// One convolution algorithm, planned and loaded with random weights as the forward pass
    /// runs it, on this layer's shapes, split over the threads (with `pooled`, the sliding window
    /// with the 2x2/2 max pool after it; `kernelSet` names its reduced-precision set).
    private func convolution(_ layer: LayerPlan, shape: String, method: any ConvolutionMethod,
                             pooled: Bool, kernelSet: String? = nil) -> MicroBenchmark {
        let input = layer.inputShape, output = layer.outputShape
        let name = type(of: method).algorithm.name + (pooled ? " + maxpool" : "") + (kernelSet.map { " [\($0)]" } ?? "")
        return MicroBenchmark(
            name: "conv L\(layer.index) \(name)", shape: shape, flops: Double(layer.flops), bytes: 0,
            setUp: { [kernels = plan.vectorKernels] in
                guard case .convolutional(let conv) = layer.spec.kind else { preconditionFailure("not a convolution") }
                let kernelArea = input.channels / conv.groups * conv.size * conv.size
                let weights = Array(UnsafeBufferPointer(start: randomBuffer(conv.filters * kernelArea, seed: 4, low: -0.1, high: 0.1),
                                                        count: conv.filters * kernelArea))
                let biases = Array(UnsafeBufferPointer(start: randomBuffer(conv.filters, seed: 5, low: -0.1, high: 0.1),
                                                       count: conv.filters))
                let kernel = method.load(weights: weights, biases: biases)
                let x = randomBuffer(input.count, seed: 3, low: -0.5, high: 4)
                let workspace = alignedBuffer(method.workspaceCount + method.scratchCount * split.threads)
                let y = alignedBuffer(output.count)
                let buffers = ConvolutionBuffers(
                    input: x, output: y, workspace: workspace, scratch: workspace + method.workspaceCount,
                    scratchStride: method.scratchCount, split: split, kernels: kernels, pooled: pooled ? y : nil)
                return Fixture(body: { kernel.run(buffers) },
                               tearDown: { blackHole(y[0]); release(x, workspace, y) })
            })
    }

    /// im2col for every convolution with a kernel larger than 1x1. GB/s counts the input read
    /// once and the column matrix written once.
    func im2colBenchmarks() -> [MicroBenchmark] {
        var result = DistinctBenchmarks()
        for layer in plan.layers {
            guard case .convolutional(let conv) = layer.spec.kind, conv.size > 1, conv.strideX == conv.strideY, conv.dilation == 1 else { continue }
            let input = layer.inputShape, output = layer.outputShape
            let channels = input.channels / conv.groups
            let columns = channels * conv.size * conv.size * output.planeSize
            let shape = "\(channels)x\(input.height)x\(input.width) \(conv.size)x\(conv.size)/\(conv.strideX) -> \(channels * conv.size * conv.size)x\(output.planeSize)"
            guard result.isNew(shape) else { continue }
            result.append(key: shape, MicroBenchmark(
                name: "im2col L\(layer.index)", shape: shape, flops: 0,
                bytes: Double(channels * input.planeSize + columns) * 4,
                setUp: {
                    let x = randomBuffer(channels * input.planeSize, seed: 6)
                    let y = alignedBuffer(columns)
                    return Fixture(body: { [kernels = plan.vectorKernels] in
                        kernels.im2col(x, channels: channels, height: input.height, width: input.width,
                               size: conv.size, stride: conv.strideX, padding: conv.padding,
                               outHeight: output.height, outWidth: output.width, into: y)
                    }, tearDown: { blackHole(y[0]); release(x, y) })
                }))
        }
        return result.benchmarks
    }

    /// The largest convolution output of the network (the tensor activations run over most).
    private var largestConvolutionOutput: TensorShape {
        plan.layers.filter { if case .convolutional = $0.spec.kind { true } else { false } }
            .map(\.outputShape).max { $0.count < $1.count }
            ?? TensorShape(channels: 16, height: inputSize, width: inputSize)
    }

    /// In-place element-wise passes over the largest convolution output; the input is restored
    /// before every call (outside the timer), so each call sees the same values.
    func activations() -> [MicroBenchmark] {
        let shape = largestConvolutionOutput
        let count = shape.count
        let bytes = Double(count) * 8
        let kernels = plan.vectorKernels
        func inPlace(_ name: String, _ body: @escaping (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Void) -> MicroBenchmark {
            MicroBenchmark(name: name, shape: "\(shape.channels)x\(shape.height)x\(shape.width) (\(count) values)",
                           flops: 0, bytes: bytes, setUp: {
                let pristine = randomBuffer(count, seed: 7, low: -4, high: 4)
                let data = alignedBuffer(count)
                let biases = randomBuffer(shape.channels, seed: 8, low: -0.5, high: 0.5)
                return Fixture(body: { body(data, biases) },
                               reset: { data.update(from: pristine, count: count) },
                               tearDown: { blackHole(data[0]); release(pristine, data, biases) })
            })
        }
        return [
            inPlace("activation leaky") { data, _ in kernels.activate(data, count: count, activation: .leaky) },
            inPlace("activation logistic") { data, _ in kernels.activate(data, count: count, activation: .logistic) },
            inPlace("activation linear+bias") { data, biases in
                kernels.addBiasAndActivate(data, biases: biases, channels: shape.channels, planeSize: shape.planeSize,
                                           activation: .linear)
            },
            inPlace("activation leaky+bias") { data, biases in
                kernels.addBiasAndActivate(data, biases: biases, channels: shape.channels, planeSize: shape.planeSize,
                                           activation: .leaky)
            },
        ]
    }

    /// Every distinct `[maxpool]` of the network; without any, 2x2/2 and 2x2/1 on typical shapes.
    func pooling() -> [MicroBenchmark] {
        var cases: [(index: Int?, input: TensorShape, size: Int, stride: Int, padding: Int)] = []
        for layer in plan.layers {
            guard case .maxpool(let pool) = layer.spec.kind, pool.strideX == pool.strideY else { continue }
            cases.append((layer.index, layer.inputShape, pool.size, pool.strideX, pool.padding))
        }
        if cases.isEmpty {
            cases = [(nil, TensorShape(channels: 64, height: inputSize / 2, width: inputSize / 2), 2, 2, 1),
                     (nil, TensorShape(channels: 512, height: inputSize / 32, width: inputSize / 32), 2, 1, 1)]
        }
        var result = DistinctBenchmarks()
        for c in cases {
            let outHeight = (c.input.height + c.padding - c.size) / c.stride + 1
            let outWidth = (c.input.width + c.padding - c.size) / c.stride + 1
            let outCount = c.input.channels * outHeight * outWidth
            let shape = "\(c.input.channels)x\(c.input.height)x\(c.input.width) -> \(outHeight)x\(outWidth)"
            let key = "\(c.size)/\(c.stride)/\(c.padding) \(shape)"
            guard result.isNew(key) else { continue }
            result.append(key: key, MicroBenchmark(
                name: "maxpool \(c.size)x\(c.size)/\(c.stride)" + (c.index.map { " L\($0)" } ?? ""), shape: shape, flops: 0,
                bytes: Double(c.input.count + outCount) * 4,
                setUp: {
                    let x = randomBuffer(c.input.count, seed: 9), y = alignedBuffer(outCount)
                    // The separable path of wide windows (SPP) needs the planner's scratch.
                    let scratch = alignedBuffer(max(c.input.channels * c.input.height * outWidth, 1))
                    return Fixture(body: { [kernels = plan.vectorKernels] in
                        kernels.maxpool(x, channels: c.input.channels, height: c.input.height, width: c.input.width,
                                size: c.size, strideX: c.stride, strideY: c.stride, padding: c.padding,
                                outHeight: outHeight, outWidth: outWidth, into: y, scratch: scratch)
                    }, tearDown: { blackHole(y[0]); release(x, y, scratch) })
                }))
        }
        return result.benchmarks
    }

    /// Every distinct `[upsample]`; without any, x2 on 256 x (size/16)^2.
    func upsampling() -> [MicroBenchmark] {
        var cases: [(index: Int?, input: TensorShape, stride: Int, scale: Float)] = []
        for layer in plan.layers {
            guard case .upsample(let up) = layer.spec.kind else { continue }
            cases.append((layer.index, layer.inputShape, up.stride, up.scale))
        }
        if cases.isEmpty { cases = [(nil, TensorShape(channels: 256, height: inputSize / 16, width: inputSize / 16), 2, 1)] }
        var result = DistinctBenchmarks()
        for c in cases {
            let outCount = c.input.count * c.stride * c.stride
            let shape = "\(c.input.channels)x\(c.input.height)x\(c.input.width) -> \(c.input.height * c.stride)x\(c.input.width * c.stride)"
            guard result.isNew(shape) else { continue }
            result.append(key: shape, MicroBenchmark(
                name: "upsample x\(c.stride)" + (c.index.map { " L\($0)" } ?? ""), shape: shape, flops: 0,
                bytes: Double(c.input.count + outCount) * 4,
                setUp: {
                    let x = randomBuffer(c.input.count, seed: 10), y = alignedBuffer(outCount)
                    return Fixture(body: {
                        upsample(x, channels: c.input.channels, height: c.input.height, width: c.input.width,
                                 stride: c.stride, scale: c.scale, into: y)
                    }, tearDown: { blackHole(y[0]); release(x, y) })
                }))
        }
        return result.benchmarks
    }

    /// Every `[route]`: its sources copied one after the other into the output, as the forward
    /// pass does. Without any, a 2-source concatenation of 128 and 256 channels at size/16.
    func routes() -> [MicroBenchmark] {
        var cases: [(index: Int?, sources: [Int])] = []
        for layer in plan.layers {
            guard case .route(let route) = layer.spec.kind else { continue }
            cases.append((layer.index, route.layers.map { plan.layers[$0].outputShape.count }))
        }
        let side = inputSize / 16
        if cases.isEmpty { cases = [(nil, [128 * side * side, 256 * side * side])] }
        var result = DistinctBenchmarks()
        for c in cases {
            let total = c.sources.reduce(0, +)
            let shape = "\(c.sources.count) source(s), \(total) values"
            guard result.isNew(shape) else { continue }
            result.append(key: shape, MicroBenchmark(
                name: "route" + (c.index.map { " L\($0)" } ?? ""), shape: shape, flops: 0, bytes: Double(total) * 8,
                setUp: {
                    let sources = c.sources.enumerated().map { randomBuffer($1, seed: 11 + UInt64($0)) }
                    let y = alignedBuffer(total)
                    return Fixture(body: {
                        var destination = y
                        for (source, count) in zip(sources, c.sources) {
                            destination.update(from: source, count: count)
                            destination += count
                        }
                    }, tearDown: { blackHole(y[0]); sources.forEach { release($0) }; release(y) })
                }))
        }
        return result.benchmarks
    }

    /// Every distinct `[shortcut]` shape (none in YOLOv3-tiny).
    func shortcuts() -> [MicroBenchmark] {
        var result = DistinctBenchmarks()
        for layer in plan.layers {
            guard case .shortcut(let sc) = layer.spec.kind else { continue }
            let shape = layer.outputShape
            let key = "\(shape.channels)x\(shape.height)x\(shape.width) \(sc.activation.rawValue)"
            guard result.isNew(key) else { continue }
            let count = shape.count
            result.append(key: key, MicroBenchmark(
                name: "shortcut L\(layer.index)", shape: key, flops: 0, bytes: Double(count) * 12,
                setUp: {
                    let a = randomBuffer(count, seed: 20), b = randomBuffer(count, seed: 21), y = alignedBuffer(count)
                    return Fixture(body: { [kernels = plan.vectorKernels] in
                        kernels.shortcut(a, b, count: count, alpha: sc.alpha, beta: sc.beta, activation: sc.activation, into: y)
                    }, tearDown: { blackHole(y[0]); release(a, b, y) })
                }))
        }
        return result.benchmarks
    }

    /// Darknet's letterbox of a 1920x1080 RGB image into the network input (resize + paste,
    /// including the allocations the public API makes). GB/s: source read + canvas written.
    func letterbox() -> MicroBenchmark {
        let size = inputSize
        let sourceCount = 1920 * 1080 * 3
        return MicroBenchmark(
            name: "letterbox 1920x1080", shape: "1920x1080x3 -> \(size)x\(size)", flops: 0,
            bytes: Double(sourceCount + size * size * 3) * 4,
            setUp: {
                var random = SeededRandom(seed: 30)
                let pixels = (0..<sourceCount).map { _ in random.next() }
                let image = try! PlanarImage(width: 1920, height: 1080, channels: 3, pixels: pixels)
                return Fixture(body: { blackHole(try! image.letterboxed(width: size, height: size)) })
            })
    }

    /// A 1280x720 camera frame (BGRA, NV12) to the network input: letterboxed straight from the
    /// bytes (`PixelBuffer.letterbox(into:...)`, "direct"); converted by the library to a
    /// full-size float `PlanarImage`, then letterboxed ("PlanarImage+letterbox"); and as it had to be done
    /// before pixel buffers existed, a per-pixel loop into planar floats written as a user
    /// writes it (BT.601 in floats for NV12), then letterboxed ("loop+letterbox").
    func pixelInputs() -> [MicroBenchmark] {
        let size = inputSize, width = 1280, height = 720
        var random = SeededRandom(seed: 31)
        let bgra = (0..<(width * height * 4)).map { _ in UInt8(random.next() * 255) }
        let luma = (0..<(width * height)).map { _ in UInt8(random.next() * 255) }
        let chroma = (0..<(width * height / 2)).map { _ in UInt8(random.next() * 255) }
        let frames: [(String, PixelBuffer, () -> PlanarImage)] = [
            ("BGRA", try! PixelBuffer(format: .bgra, width: width, height: height, bytes: bgra),
             { userLoopBGRA(bgra, width: width, height: height) }),
            ("NV12", try! PixelBuffer(format: .nv12(.video), width: width, height: height,
                                      planes: [.init(bytes: luma, bytesPerRow: width), .init(bytes: chroma, bytesPerRow: width)]),
             { userLoopNV12(luma, chroma, width: width, height: height) }),
        ]
        return frames.flatMap { name, frame, userLoop in [
            MicroBenchmark(
                name: "pixels \(name) direct", shape: "\(width)x\(height) \(name) -> \(size)x\(size)x3", flops: 0, bytes: 0,
                setUp: {
                    let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: 3 * size * size)
                    return Fixture(body: { blackHole(try! frame.letterbox(into: input, width: size, height: size)) },
                                   tearDown: { blackHole(input[0]); input.deallocate() })
                }),
            MicroBenchmark(
                name: "pixels \(name) Image+letterbox", shape: "\(width)x\(height) \(name) -> Image -> \(size)x\(size)x3",
                flops: 0, bytes: 0,
                setUp: { Fixture(body: { blackHole(try! PlanarImage(pixels: frame).letterboxed(width: size, height: size)) }) }),
            MicroBenchmark(
                name: "pixels \(name) loop+letterbox", shape: "\(width)x\(height) \(name) -> user loop -> \(size)x\(size)x3",
                flops: 0, bytes: 0,
                setUp: { Fixture(body: { blackHole(try! userLoop().letterboxed(width: size, height: size)) }) }),
        ] } + [packedYUYVDirect(width: width, height: height, size: size)]
    }

    /// A USB webcam's YUYV frame letterboxed straight from its bytes (luma gathered per row).
    private func packedYUYVDirect(width: Int, height: Int, size: Int) -> MicroBenchmark {
        var random = SeededRandom(seed: 32)
        let bytes = (0..<(width * height * 2)).map { _ in UInt8(random.next() * 255) }
        let frame = try! PixelBuffer(format: .yuyv(.video), width: width, height: height, bytes: bytes)
        return MicroBenchmark(
            name: "pixels YUYV direct", shape: "\(width)x\(height) YUYV -> \(size)x\(size)x3", flops: 0, bytes: 0,
            setUp: {
                let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: 3 * size * size)
                return Fixture(body: { blackHole(try! frame.letterbox(into: input, width: size, height: size)) },
                               tearDown: { blackHole(input[0]); input.deallocate() })
            })
    }

    /// Darknet's `do_nms_sort` over 10,000 candidates with 80 classes, each with one class
    /// above the threshold (as `get_yolo_detections` leaves them). Rebuilt before every call.
    func nms() -> MicroBenchmark {
        let boxes = 10_000, classes = 80
        return MicroBenchmark(
            name: "nms 10000 boxes", shape: "\(boxes) boxes x \(classes) classes, 1 class/box, IoU 0.45",
            flops: 0, bytes: 0,
            setUp: {
                var random = SeededRandom(seed: 40)
                var geometry: [RelativeBox] = [], objectness: [Float] = [], classOf: [Int] = [], score: [Float] = []
                for _ in 0..<boxes {
                    geometry.append(RelativeBox(x: random.next(), y: random.next(),
                                                width: random.next(0.02, 0.3), height: random.next(0.02, 0.3)))
                    let object = random.next(0.25, 1)
                    objectness.append(object)
                    classOf.append(min(Int(random.next() * Float(classes)), classes - 1))
                    score.append(object * random.next(0.5, 1))
                }
                var candidates: [BoxCandidate] = []
                return Fixture(body: {
                    NonMaximumSuppression.apply(&candidates, classes: classes, threshold: 0.45)
                }, reset: {
                    candidates = (0..<boxes).map { i in
                        var probabilities = [Float](repeating: 0, count: classes)
                        probabilities[classOf[i]] = score[i]
                        return BoxCandidate(box: geometry[i], objectness: objectness[i], probabilities: probabilities)
                    }
                }, tearDown: { blackHole(candidates.count) })
            })
    }
}

/// BGRA bytes to a planar RGB `PlanarImage` the way an app wrote it before `PixelBuffer`.
private func userLoopBGRA(_ bytes: [UInt8], width: Int, height: Int) -> PlanarImage {
    let area = width * height
    var planes = [Float](repeating: 0, count: 3 * area)
    for y in 0..<height {
        for x in 0..<width {
            let p = (y * width + x) * 4, i = y * width + x
            planes[i] = Float(bytes[p + 2]) / 255
            planes[area + i] = Float(bytes[p + 1]) / 255
            planes[2 * area + i] = Float(bytes[p]) / 255
        }
    }
    return try! PlanarImage(width: width, height: height, channels: 3, pixels: planes)
}

/// NV12 to a planar RGB `PlanarImage` with the BT.601 formula in floats, as an app wrote it.
private func userLoopNV12(_ luma: [UInt8], _ chroma: [UInt8], width: Int, height: Int) -> PlanarImage {
    let area = width * height
    var planes = [Float](repeating: 0, count: 3 * area)
    for y in 0..<height {
        for x in 0..<width {
            let c = (y / 2) * width + (x / 2) * 2
            let l = 1.164 * (Float(luma[y * width + x]) - 16)
            let u = Float(chroma[c]) - 128, v = Float(chroma[c + 1]) - 128
            let i = y * width + x
            planes[i] = min(max(l + 1.596 * v, 0), 255) / 255
            planes[area + i] = min(max(l - 0.392 * u - 0.813 * v, 0), 255) / 255
            planes[2 * area + i] = min(max(l + 2.017 * u, 0), 255) / 255
        }
    }
    return try! PlanarImage(width: width, height: height, channels: 3, pixels: planes)
}
