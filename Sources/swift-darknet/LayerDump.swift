import CommandLineKit
import Darknet
import Foundation

/// Writes layer outputs as `layerNNN.bin` (float32 little-endian, CHW) plus `layers.json`.
enum LayerDump {
    static func write(session: InferenceSession, layers: [Int], to directory: URL) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CLIError("\(directory.path): cannot create the directory")
        }
        var entries: [String] = []
        for index in layers {
            let file = String(format: "layer%03d.bin", index)
            let type = session.network.plan.layers[index].spec.kind.sectionName
            let shape = try session.withOutput(ofLayer: index) { values, shape in
                let data = Data(buffer: UnsafeBufferPointer(start: values.baseAddress, count: values.count))
                try write(data, to: directory.appendingPathComponent(file))
                return shape
            }
            entries.append(#"{"index": \#(index), "type": "\#(type)", "file": "\#(file)", "out_c": \#(shape.channels), "out_h": \#(shape.height), "out_w": \#(shape.width)}"#)
        }
        let json = "{\"layers\": [\n  " + entries.joined(separator: ",\n  ") + "\n]}\n"
        try write(Data(json.utf8), to: directory.appendingPathComponent("layers.json"))
    }

    private static func write(_ data: Data, to url: URL) throws {
        do { try data.write(to: url) } catch { throw CLIError("\(url.path): cannot write the file") }
    }
}
