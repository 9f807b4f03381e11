@testable import Darknet
import Foundation
import TestSupport
import XCTest

/// `swift-darknet info`'s BFLOPs against Darknet's: for every cfg in Debian's package that this
/// library parses and plans, each convolution's BFLOPs and the total equal what Darknet's
/// parser computes for the same file (`darknet_ref flops`, recorded by make-fixtures-zoo.sh).
final class DarknetFlopsTests: XCTestCase {
    private struct Reference: Decodable {
        let layers: Int
        let conv: [[Double]]
        let total: Double
    }

    func testEveryDebianCfgWeRunHasDarknetsBFLOPs() throws {
        let cfgs = try FileManager.default.contentsOfDirectory(at: try TestPaths.require(TestPaths.darknetCfg),
                                                               includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "cfg" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        var compared: [String] = [], refused: [String] = []
        for url in cfgs {
            let name = url.deletingPathExtension().lastPathComponent
            let plan: NetworkPlan
            do {
                plan = try NetworkPlan(spec: try NetworkSpec.parse(bytes: [UInt8](Data(contentsOf: url)), file: url.lastPathComponent))
            } catch {
                refused.append("\(name) (\(error))")
                continue
            }
            let json = try TestPaths.require(ZooFidelityTests.zoo.appendingPathComponent("flops/\(name).json"))
            let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: json))
            XCTAssertEqual(plan.layers.count, reference.layers, "\(name): layer count")
            let ours = plan.layers.filter { $0.flops > 0 }.map { [Double($0.index), Double($0.flops) / 1e9] }
            XCTAssertEqual(ours.map { Int($0[0]) }, reference.conv.map { Int($0[0]) }, "\(name): convolutional layers")
            for (mine, theirs) in zip(ours, reference.conv) {
                XCTAssertEqual(mine[1], theirs[1], accuracy: 1e-9, "\(name) layer \(Int(mine[0])) BFLOPs")
            }
            XCTAssertEqual(Double(plan.flops) / 1e9, reference.total, accuracy: 1e-6, "\(name): total BFLOPs")
            compared.append(String(format: "%@ %.3f", name, reference.total))
        }
        print("BFLOPs equal to Darknet's: " + compared.joined(separator: ", "))
        print("not parsed here: " + refused.joined(separator: "; "))
        XCTAssertEqual(refused, [], "every Debian cfg plans")
        XCTAssertGreaterThanOrEqual(compared.count, 42, "the Debian cfgs this library runs")
        XCTAssertTrue(["yolov2 ", "darknet19 ", "resnet50 "].allSatisfy { name in compared.contains { $0.hasPrefix(name) } })
    }
}
