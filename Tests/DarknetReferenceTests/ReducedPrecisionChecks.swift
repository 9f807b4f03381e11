@testable import Darknet
import DarknetImage
import Foundation
import TestSupport
import XCTest

/// What the bfloat16 and float16 network tests (`BFloat16NetworkTests`, `Float16NetworkTests`)
/// both check, on YOLOv3-tiny with its real weights.
enum ReducedPrecisionChecks {
    /// YOLOv3-tiny planned for `precision`, its 16-bit layers on `kernels` (nil: the CPU's), with
    /// `tuning`.
    static func network(_ precision: Precision, kernels: ReducedKernels? = nil,
                        tuning: ConvolutionTuning = ConvolutionTuning()) throws -> Network {
        var options = PlanOptions(precision: precision)
        options.reducedKernels = kernels
        options.tuning = tuning
        return try Network(cfg: try TestPaths.require(TestPaths.tinyCfg), weights: try TestPaths.require(TestPaths.tinyWeights),
                           options: options)
    }

    /// Darknet's seven sample photos, the six calibration photos and, with `mirrored`, all their
    /// mirror images.
    static func images(mirrored: Bool = true) throws -> [(String, PlanarImage)] {
        let folder = TestPaths.weights.appendingPathComponent("calibration")
        let photos = try Int8Calibration.imageFiles(in: folder).map { ($0.lastPathComponent, try PlanarImage(contentsOf: $0)) }
        let all = try Int8NetworkTests.evaluationImages() + photos
        return mirrored ? try all + all.map { ("\($0.0)-mirrored", try Int8NetworkTests.mirrored($0.1)) } : all
    }

    /// Every layer's output for dog.jpg, letterboxed to 416x416, on `threads` threads.
    static func layerOutputs(_ network: Network, threads: Int) throws -> [[Float]] {
        let input = try Int8NetworkTests.evaluationImages()[0].1.letterboxed(width: 416, height: 416).image.pixels
        let session = InferenceSession(network: network, retaining: .layers(Set(network.plan.layers.indices)), threads: threads)
        try session.forward(input)
        return try network.plan.layers.indices.map { try session.output(ofLayer: $0).values }
    }

    /// `precision`'s portable set (the arithmetic the CPU's SIMD set emulates, else the format's
    /// x86-64 one) and that SIMD set give every layer the same bits, the SIMD set on one thread and
    /// on two; at least `minimumReducedLayers` layers run in the 16-bit arithmetic. The portable
    /// set runs on two threads here only where it is what the CPU runs (no SIMD set);
    /// `ReducedConvolutionTests` runs every portable set on 1, 2 and 3 threads. With `pinned`, that
    /// SIMD set instead of the CPU's (where the CPU runs it) against its portable set.
    static func simdAndThreadsGiveThePortableBits(_ precision: Precision, portable fallback: ReducedKernels, label: String,
                                                  minimumReducedLayers: Int = 0, pinned: ReducedKernels? = nil,
                                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let arithmetic = try XCTUnwrap(precision.reducedArithmetic, file: file, line: line)
        let cpu = CPUFeatures.current
        let simd = pinned.map { $0.runs(on: cpu.architecture, cpu.extensions) ? $0 : nil } ?? cpu.reducedKernels(for: arithmetic)
        let reference = simd?.reference ?? fallback
        let portable = try network(precision, kernels: reference)
        let reducedLayers = portable.plan.layers.filter { $0.arithmetic == arithmetic }
        XCTAssertGreaterThanOrEqual(reducedLayers.count, minimumReducedLayers, file: file, line: line)
        XCTAssertTrue(reducedLayers.allSatisfy { $0.reducedKernels == reference }, file: file, line: line)
        let expected = try layerOutputs(portable, threads: 1)
        guard let simd else {
            XCTAssertEqual(try layerOutputs(portable, threads: 2), expected, file: file, line: line)
            print("\(label): this CPU has no \(arithmetic) SIMD kernels: only the portable set ran, "
                  + "the SIMD set's network bits were not compared")
            return
        }
        let best = try network(precision, kernels: pinned)
        XCTAssertTrue(best.plan.layers.filter { $0.arithmetic == arithmetic }.allSatisfy { $0.reducedKernels == simd },
                      file: file, line: line)
        XCTAssertEqual(try layerOutputs(best, threads: 1), expected, "\(simd) vs \(reference)", file: file, line: line)
        XCTAssertEqual(try layerOutputs(best, threads: 2), expected, "\(simd) on 2 threads", file: file, line: line)
    }

    /// The inputs of `detector`'s heads for `image` letterboxed, from one forward pass.
    static func headInputs(of detector: Detector, for image: PlanarImage) throws -> [[Float]] {
        let (input, _) = try detector.prepare(image, letterbox: true)
        let heads = detector.network.plan.detectionHeads.map { $0.index - 1 }
        let session = InferenceSession(network: detector.network, retaining: .layers(Set(heads)))
        try session.forward(input.pixels)
        return try heads.map { try session.output(ofLayer: $0).values }
    }

    /// `precision` on `kernels` keeps at least 99 % of float32's detections (same class, IoU >=
    /// 0.9) and adds at most 1 %, at thresholds 0.25 and 0.5, on `images(mirrored:)`; each layer's largest
    /// difference from float32 on dog.jpg is printed, after `label`. At least
    /// `minimumReducedLayers` layers run in the 16-bit arithmetic.
    @discardableResult
    static func keepsFloatDetections(_ precision: Precision, kernels: ReducedKernels, label: String,
                                     minimumReducedLayers: Int = 0, mirrored: Bool = true,
                                     tuning: ConvolutionTuning = ConvolutionTuning(),
                                     file: StaticString = #filePath, line: UInt = #line) throws -> Network {
        let float = try network(.float32)
        let reduced = try network(precision, kernels: kernels, tuning: tuning)
        let arithmetic = precision.reducedArithmetic
        XCTAssertGreaterThanOrEqual(reduced.plan.layers.filter { $0.arithmetic == arithmetic }.count, minimumReducedLayers,
                                    file: file, line: line)
        let floatDetector = try Detector(network: float), reducedDetector = try Detector(network: reduced)
        let images = try images(mirrored: mirrored)
        // One forward pass per image and network (the portable sets are scalar C), decoded at
        // both thresholds: `detect(headInputs:)` gives what `detect(_:)` does (HeadInputDetectionTests).
        let floatHeads = try images.map { try headInputs(of: floatDetector, for: $0.1) }
        let reducedHeads = try images.map { try headInputs(of: reducedDetector, for: $0.1) }
        for threshold: Float in [0.25, 0.5] {
            var comparison = Int8NetworkTests.Comparison()
            let options = DetectionOptions(threshold: threshold)
            for (index, (_, image)) in images.enumerated() {
                Int8NetworkTests.compare(
                    try floatDetector.detect(headInputs: floatHeads[index], imageWidth: image.width, imageHeight: image.height,
                                             options: options),
                    try reducedDetector.detect(headInputs: reducedHeads[index], imageWidth: image.width,
                                               imageHeight: image.height, options: options),
                    minimumIoU: 0.9, into: &comparison)
            }
            let kept = Double(comparison.recovered) / Double(comparison.float), extra = Double(comparison.extra) / Double(comparison.float)
            print(String(format: "%@ YOLOv3-tiny, %d images, threshold %.2f: %d float detections, %d kept (%.1f %%), %d extra (%.1f %%); "
                         + "largest confidence difference %.4f, smallest IoU %.3f", label, images.count, threshold, comparison.float,
                         comparison.recovered, 100 * kept, comparison.extra, 100 * extra,
                         comparison.largestConfidenceDifference, comparison.smallestIoU))
            XCTAssertGreaterThanOrEqual(comparison.float, mirrored ? 30 : 15, "a comparison of few detections proves little", file: file, line: line)
            XCTAssertGreaterThanOrEqual(kept, 0.99, "threshold \(threshold)", file: file, line: line)
            XCTAssertLessThanOrEqual(extra, 0.01, "threshold \(threshold)", file: file, line: line)
        }
        let floatOutputs = try layerOutputs(float, threads: 1), reducedOutputs = try layerOutputs(reduced, threads: 1)
        let differences = floatOutputs.indices.map { index in
            String(format: "%d %.3f", index, maxAbsDifference(floatOutputs[index], reducedOutputs[index]))
        }
        print("\(label) YOLOv3-tiny on dog.jpg, each layer's largest difference from float32: " + differences.joined(separator: ", "))
        return reduced
    }
}
