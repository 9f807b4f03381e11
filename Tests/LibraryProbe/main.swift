// darknet-library-probe CFG WEIGHTS IMAGE DIR THREADS
//
// The library as an application that links only Darknet and DarknetImage uses it: a `Network`
// with the library's default options, Darknet's letterbox, one forward pass on THREADS threads.
// Writes every layer's output to DIR/layerNNN.bin (float32, as `swift-darknet forward --dump`
// writes them) and prints the BLAS kernel family the process runs. Unlike swift-darknet (whose
// FFmpeg libraries load OpenBLAS at start-up), this process opens OpenBLAS only when the library
// first needs it: the tests compare the two under each BLAS family (BLASFamilyTests).
//
// darknet-library-probe --blas-cuts
//
// Prints the BLAS kernel family and what the probe GEMM measures (`cuts invariantly: BOOL`), for
// BLASFamilyTests to check the library's table (`BLASFeatures.invariantFamilies`) under each family.
@_spi(Testing) import Darknet
import DarknetImage
import Foundation

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--blas-cuts" {
    do {
        try BLAS.ensureLoaded()
        print("blas: \(BLAS.kernelName)")
        print("cuts invariantly: \(BLAS.measureCutsInvariantly())")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("darknet-library-probe: \(error)\n".utf8))
        exit(1)
    }
}
guard arguments.count == 6, let threads = Int(arguments[5]), threads >= 1 else {
    FileHandle.standardError.write(Data("usage: darknet-library-probe CFG WEIGHTS IMAGE DIR THREADS\n".utf8))
    exit(2)
}
do {
    let network = try Network(cfg: URL(fileURLWithPath: arguments[1]), weights: URL(fileURLWithPath: arguments[2]))
    let shape = network.inputShape
    let input = try PlanarImage(contentsOf: URL(fileURLWithPath: arguments[3]))
        .letterboxed(width: shape.width, height: shape.height).image
    let session = InferenceSession(network: network, retaining: .layers(Set(network.plan.layers.indices)), threads: threads)
    try session.forward(input.pixels)
    let directory = URL(fileURLWithPath: arguments[4])
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for index in network.plan.layers.indices {
        try session.withOutput(ofLayer: index) { values, _ in
            try Data(buffer: UnsafeBufferPointer(start: values.baseAddress, count: values.count))
                .write(to: directory.appendingPathComponent(String(format: "layer%03d.bin", index)))
        }
    }
    print("blas: \(BLAS.kernelName)")
} catch {
    FileHandle.standardError.write(Data("darknet-library-probe: \(error)\n".utf8))
    exit(1)
}
