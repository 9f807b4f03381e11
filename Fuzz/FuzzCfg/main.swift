#if FUZZ_REPLAY
import FuzzReplay
#endif
import Darknet

// libFuzzer target: a `.cfg` file through the parser and the planner; when the planned
// network is small, also a forward pass with random weights and detection decoding, so the
// sanitizers watch the kernels and the decoder on every shape the fuzzer invents.
// Anything but a typed error or a success is a finding.

/// Networks at most this big (floats of activations, workspace and parameters) are run.
let runnableFloats = 1 << 20
/// ... and at most this many FLOPs per forward pass.
let runnableFlops = 20_000_000
/// Detections are decoded when the heads give at most this many boxes: Darknet's NMS compares
/// every pair of candidates of a class, so a 2424x24 single-anchor head (58 176 boxes, most of
/// them above the threshold with random weights) took 28 s under ASan, near the 30 s timeout.
let decodableBoxes = 16_384

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    let spec: NetworkSpec
    let plan: NetworkPlan
    do {
        // Parsing and planning never read a `tree=` file; every `Network` initialiser loads the
        // trees first. Loading them here puts a missing or invalid tree among the typed refusals.
        spec = try NetworkSpec.parse(bytes: bytes, file: "fuzz.cfg").loadingClassTrees()
        plan = try NetworkPlan(spec: spec)
    } catch {
        _ = String(describing: error)  // every error must describe itself
        return 0
    }
    check(plan.layers.count == spec.layers.count, "a layer was lost while planning")
    let floats = plan.layers.reduce(plan.inputShape.count) { $0 + $1.outputShape.count } + plan.workspaceCount + plan.parameterCount
    guard floats <= runnableFloats, plan.flops <= runnableFlops else { return 0 }

    let network: Network
    do {
        network = try Network(spec: spec, randomSeed: UInt64(size))
    } catch {
        fatalError("planned once, refused the second time: \(error)")
    }
    let session = InferenceSession(network: network, retaining: .all)
    let input = (0..<plan.inputShape.count).map { Float($0 % 7) / 6 }
    do {
        try session.forward(input)
        for layer in plan.layers {
            let output = try session.output(ofLayer: layer.index)
            check(output.shape == layer.outputShape && output.values.count == layer.outputShape.count, "layer \(layer.index) output")
        }
    } catch {
        fatalError("a planned network failed to run: \(error)")
    }

    guard plan.layers.contains(where: { $0.spec.kind.isDetectionHead }) else { return 0 }
    guard boxCount(plan) <= decodableBoxes else { return 0 }
    do {
        let detector = try Detector(network: network)
        let image = try PlanarImage(width: 11, height: 5, channels: plan.inputShape.channels, filledWith: 0.25)
        for detection in try detector.detect(image, threshold: 0.1) {
            check(detection.confidence > 0.1, "a detection below the threshold")
        }
    } catch is DetectorError {
        // A typed refusal (e.g. heads that disagree on the class count).
    } catch {
        fatalError("detection failed: \(error)")
    }
    return 0
}

/// Boxes the detection heads decode: one per anchor and cell.
func boxCount(_ plan: NetworkPlan) -> Int {
    plan.layers.reduce(0) { total, layer in
        switch layer.spec.kind {
        case .yolo(let yolo): total + yolo.mask.count * layer.outputShape.planeSize
        case .region(let region): total + region.num * layer.outputShape.planeSize
        default: total
        }
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

#if FUZZ_REPLAY
// A declaration, not a statement: libFuzzer builds parse this file as a library.
let replayed: Void = replayInputs("FuzzCfg", fuzz)
#endif
