import Darknet
import Foundation

/// How a `DetectionServer` listens, how much it takes, and how it detects.
///
/// Memory is bounded by `connectionLimit` x (`connectionMemoryLimit` + `maxUploadBytes`) for
/// requests arriving, plus `workers` decoded images of at most `maxPixels` (12 bytes a pixel)
/// being prepared, `workers` prepared network inputs waiting, and the detector's sessions;
/// `queueCapacity` bounds the requests waiting for a worker.
public struct ServerConfiguration: Sendable {
    /// The address HTTP listens on (IPv4 or IPv6 literal). Default: loopback only.
    public var host: String = "127.0.0.1"
    /// The HTTP port; 0 picks a free one (`DetectionServer.port` tells which).
    public var port: Int = 5000
    /// Frigate's ZMQ detector endpoint to bind (`ipc:///tmp/cache/zmq_detector`,
    /// `tcp://127.0.0.1:5555`); nil: no ZMQ.
    public var zmqEndpoint: String?
    /// Requests processed at once (each runs on one worker thread with a session of its own; as
    /// many preparation threads decode the next images meanwhile). Default: the cores this
    /// process may use (`AvailableCores.count`).
    public var workers: Int = AvailableCores.count
    /// Requests that may wait for a worker; beyond it HTTP answers 503 with `Retry-After`, ZMQ
    /// an error reply.
    public var queueCapacity: Int = 16
    /// Largest request body (HTTP) or tensor frame (ZMQ) in bytes; a larger one gets 413
    /// (HTTP, told by `Content-Length` before the body is read) or is dropped (ZMQ).
    public var maxUploadBytes: Int = 16 << 20
    /// Largest `width * height` of an image or tensor (checked before pixels are allocated).
    public var maxPixels: Int = 50_000_000
    /// HTTP connections at once; more wait in the kernel's listen backlog (128) until one closes.
    public var connectionLimit: Int = 128
    /// HTTP connections one client address may hold at once (0: no limit).
    public var perClientConnectionLimit: Int = 0
    /// Bytes per HTTP connection for its request line, headers and buffers.
    public var connectionMemoryLimit: Int = 64 << 10
    /// A connection silent this long is closed.
    public var idleTimeout: Duration = .seconds(10)
    /// A request must arrive whole (headers and body) this long after the connection was ready
    /// for it, and may wait this long for a worker; a slow sender is cut off.
    public var requestTimeout: Duration = .seconds(30)
    /// How long `drain` waits for requests in progress.
    public var drainTimeout: Duration = .seconds(30)
    /// Where models Frigate's ZMQ detector transfers (`model_data`) are saved and found again;
    /// nil: transfers are refused (a detector naming a served model needs none).
    public var zmqModelDirectory: URL?
    /// Detection: `threshold` is the default `min_confidence` (DeepStack's 0.4) and ZMQ's
    /// threshold; `hierThreshold`, `nmsThreshold` and `letterbox` apply to every request.
    /// Results are always ordered by confidence, highest first.
    public var detection = DetectionOptions(threshold: 0.4)
    /// When set, a detection form must carry this `api_key` (else 401).
    public var apiKey: String?
    /// The channel order of ZMQ tensors (Frigate's `input_pixel_format`).
    public var tensorChannelOrder: TensorChannelOrder = .rgb
    /// The range of float32 ZMQ tensors' values (Frigate's `input_dtype`: float or float_denorm).
    public var tensorFloatRange: TensorFloatRange = .unit
    /// Request lines and server events.
    public var log = ServerLog()

    public init() {}
}
