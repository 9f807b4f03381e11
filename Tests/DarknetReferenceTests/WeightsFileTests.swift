@_spi(Testing) @testable import Darknet
import Foundation
import TestSupport
import XCTest

/// A `.weights` file is read with `pread`, a run of each layer at a time, not memory-mapped: one
/// that another program cuts short while it loads gives a `WeightsError` naming where it ended
/// (a read of a mapped page past the new end killed the process with SIGBUS), and a whole one
/// loads exactly as the same bytes do from memory.
final class WeightsFileTests: XCTestCase {
    /// Floats per run of a Winograd layer's weights: the loader's own, and one block per run.
    private static let runSizes = [UncheckedFloats.defaultFloatsPerRun, 1]

    /// YOLOv3-tiny's cfg and seeded weights, with the byte range of each convolution's weights
    /// and the way the loader reads them.
    private struct Fixture {
        let spec: NetworkSpec
        let plan: NetworkPlan
        let bytes: [UInt8]
        /// (layer, how it is read, weights bytes) per convolution.
        let weights: [(layer: Int, way: String, bytes: Range<Int>)]

        init() throws {
            let cfg = try TestPaths.require(TestPaths.tinyCfg)
            spec = try NetworkSpec.parse(bytes: [UInt8](Data(contentsOf: cfg)), file: cfg.path)
            plan = try NetworkPlan(spec: spec)
            bytes = try WeightsWriter().randomBytes(for: spec, seed: 11)
            let algorithms = plan.layers.map { $0.algorithm ?? .im2col }
            self.weights = WeightsWriter.layout(of: plan).filter { $0.name == "weights" }.map { array in
                let algorithm = algorithms[array.layer]
                return (array.layer, algorithm.isWinograd ? "transformed in runs (\(algorithm))" : "read whole",
                        array.offset..<(array.offset + 4 * array.count))
            }
            XCTAssertEqual(20 + 4 * WeightsWriter.storedFloatCount(plan), bytes.count, "the fixture's layout is Darknet's")
        }

        /// The bytes written to a fresh file, removed when `test` ends.
        func write(for test: XCTestCase) throws -> URL {
            let url = try test.temporaryDirectory("weights-file").appendingPathComponent("random.weights")
            try Data(bytes).write(to: url)
            return url
        }
    }

    func testAFileCutShortWhileItLoadsIsAnErrorAtTheByteWhereItEnds() throws {
        let fixture = try Fixture()
        // The middle of the weights of the first layer read each way.
        var ways = Set<String>()
        let cuts = fixture.weights.filter { ways.insert($0.way).inserted }
        XCTAssertGreaterThanOrEqual(ways.count, 3, "tiny has layers read whole and Winograd layers of two kinds: \(ways)")
        // Runs of about 1 MB, and of one block each: the cut then falls after several runs.
        for (cut, floatsPerRun) in cuts.flatMap({ cut in Self.runSizes.map { (cut, $0) } }) {
            let url = try fixture.write(for: self)
            let file = try WeightsFile(opening: url.path)
            let end = (cut.bytes.lowerBound + cut.bytes.upperBound) / 2
            try FileHandle(forWritingTo: url).truncate(atOffset: UInt64(end))
            var reader = WeightsReader(file: file)
            reader.floatsPerRun = floatsPerRun
            XCTAssertThrowsError(try Network.readParameters(&reader, plan: fixture.plan, dialect: fixture.spec.dialect),
                                 "cut in layer \(cut.layer), \(cut.way), runs of \(floatsPerRun) floats") { error in
                guard let error = error as? WeightsError, case .unreadable(let parameter, let reason) = error.reason else {
                    return XCTFail("layer \(cut.layer): \(error)")
                }
                XCTAssertEqual(error.file, url.path)
                XCTAssertEqual(error.layer, cut.layer, cut.way)
                XCTAssertEqual(parameter, "weights", cut.way)
                XCTAssertEqual(error.offset, end, cut.way)
                XCTAssertTrue(reason.contains("\(fixture.bytes.count) bytes when opened, now \(end) bytes"), reason)
            }
        }
    }

    func testAWholeFileLoadsExactlyAsTheSameBytesInMemory() throws {
        let fixture = try Fixture()
        let url = try fixture.write(for: self)
        let fromMemory = try Network(spec: fixture.spec, weights: fixture.bytes)
        for floatsPerRun in Self.runSizes {
            let fromFile = try Network(spec: fixture.spec, weights: url, floatsPerRun: floatsPerRun)
            XCTAssertEqual(fromFile.header, fromMemory.header)
            XCTAssertEqual(fromFile.steps.count, fromMemory.steps.count)
            for (layer, (file, memory)) in zip(fromFile.steps, fromMemory.steps).enumerated() {
                let fileArrays = file.parameterArrays, memoryArrays = memory.parameterArrays
                XCTAssertEqual(fileArrays.count, memoryArrays.count, "layer \(layer), runs of \(floatsPerRun) floats")
                for (array, (fileValues, memoryValues)) in zip(fileArrays, memoryArrays).enumerated() {
                    XCTAssertEqual(fileValues.count, memoryValues.count, "layer \(layer) array \(array), runs of \(floatsPerRun) floats")
                    let difference = fileValues.indices.first {
                        $0 >= memoryValues.count || fileValues[$0].bitPattern != memoryValues[$0].bitPattern
                    }
                    XCTAssertNil(difference, "layer \(layer) array \(array), runs of \(floatsPerRun) floats: the first value that differs")
                }
            }
        }
    }

    /// `WeightsFingerprint` is what its documentation says, recomputed here from that text: the
    /// size and FNV-1a 64 over 16 blocks of 4 KiB at `i * (size - 4096) / 15` (the whole file up
    /// to 64 KiB), the same from a file and from memory; a byte changed inside a block changes
    /// it.
    func testTheFingerprintIsTheSizeAndAHashOfTheDocumentedSample() throws {
        func fnv1a(_ bytes: [UInt8]) -> UInt64 {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            return hash
        }
        func documented(_ bytes: [UInt8]) -> WeightsFingerprint {
            let size = bytes.count
            guard size > 65_536 else { return WeightsFingerprint(bytes: size, sample: fnv1a(bytes)) }
            var sample: [UInt8] = []
            for block in 0..<16 {
                let start = block * (size - 4096) / 15
                sample += bytes[start..<(start + 4096)]
            }
            return WeightsFingerprint(bytes: size, sample: fnv1a(sample))
        }
        let fixture = try Fixture()
        let url = try fixture.write(for: self)
        let fromFile = try Network(spec: fixture.spec, weights: url)
        let expected = documented(fixture.bytes)
        XCTAssertEqual(fromFile.weightsFingerprint, expected)
        XCTAssertEqual(try Network(spec: fixture.spec, weights: fixture.bytes).weightsFingerprint, expected)
        XCTAssertEqual(expected.bytes, fixture.bytes.count)
        XCTAssertNil(try Network(spec: fixture.spec, randomSeed: 11).weightsFingerprint)

        // FNV-1a's published value for "a"; a small file is hashed whole.
        let a = [UInt8]("a".utf8)
        XCTAssertEqual(WeightsFingerprint(size: 1) { _, _, block in block.copyBytes(from: a) }.hexSample, "af63dc4c8601ec8c")
        let small = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        XCTAssertEqual(WeightsFingerprint.sampledRanges(size: small.count).map(\.count).reduce(0, +), small.count)

        var changed = fixture.bytes
        let block = 9 * (changed.count - 4096) / 15 + 100
        changed[block] ^= 1
        XCTAssertNotEqual(documented(changed), expected)
        XCTAssertEqual(try Network(spec: fixture.spec, weights: changed).weightsFingerprint, documented(changed))
    }

    func testADirectoryOrAMissingFileIsAFileErrorNamingIt() throws {
        let directory = try temporaryDirectory("weights-dir")
        XCTAssertThrowsError(try WeightsFile(opening: directory.path)) {
            XCTAssertEqual($0 as? FileError, FileError(path: directory.path, reason: "is a directory"))
        }
        let missing = directory.appendingPathComponent("missing.weights").path
        XCTAssertThrowsError(try WeightsFile(opening: missing)) {
            XCTAssertEqual(($0 as? FileError)?.path, missing)
        }
    }
}
