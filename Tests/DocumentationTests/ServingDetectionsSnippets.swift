import DarknetServe
import Darknet

// The Swift snippets of the article ServingDetections.md, compiled (never run) with only its imports.

func servingDetections1() throws {
    // begin Sources/DarknetServe/DarknetServe.docc/ServingDetections.md 1
    let detector = try Detector(cfg: cfgURL, weights: weightsURL, names: namesURL,
                                sessionPolicy: SessionPolicy(maximumSessions: 2))
    var configuration = ServerConfiguration()
    configuration.port = 5000
    configuration.workers = 2
    let server = try DetectionServer(models: [ServedModel(name: "yolov3-tiny", detector: detector, loadSeconds: 0.2)],
                                     configuration: configuration)
    // ... on SIGTERM:
    server.shutdown()
    // end Sources/DarknetServe/DarknetServe.docc/ServingDetections.md 1
}
