import Foundation

/// The counters and histograms `GET /metrics` reports, updated by every request.
///
/// Thread-safe: the HTTP and ZMQ threads and the workers record into it at once.
final class ServerMetrics: @unchecked Sendable {
    /// A request's outcome: where it came in, its HTTP status (ZMQ: 200 or the status an HTTP
    /// request would have had), and for errors a short reason (`bad_image`, `queue_full`, ...).
    struct Outcome: Hashable, Sendable {
        let endpoint: String
        let status: Int
    }

    private let lock = NSLock()
    private var requests: [Outcome: Int] = [:]
    private var errors: [ErrorKey: Int] = [:]
    private var requestSeconds: [String: Histogram] = [:]
    /// By model and arithmetic.
    private var inferenceSeconds: [ModelKey: Histogram] = [:]
    private var queueSeconds = Histogram()
    private let models: [(name: String, arithmetic: String, loadSeconds: Double)]
    private let started = Date()

    private struct ErrorKey: Hashable {
        let endpoint: String
        let reason: String
    }

    private struct ModelKey: Hashable {
        let model: String
        let arithmetic: String
    }

    /// Metrics of a server with `models` (name, arithmetic as `ServedModel.arithmetic` names it, load time).
    init(models: [(name: String, arithmetic: String, loadSeconds: Double)]) {
        self.models = models
    }

    /// Counts an answered request and its time from arrival to the response.
    func recordRequest(endpoint: String, status: Int, seconds: Double, errorReason: String?) {
        lock.withLock {
            requests[Outcome(endpoint: endpoint, status: status), default: 0] += 1
            if let errorReason { errors[ErrorKey(endpoint: endpoint, reason: errorReason), default: 0] += 1 }
            requestSeconds[endpoint, default: Histogram()].observe(seconds)
        }
    }

    /// Counts a request that ended without a response (the client left, a timeout cut it).
    func recordAbandoned(endpoint: String, reason: String) {
        lock.withLock { errors[ErrorKey(endpoint: endpoint, reason: reason), default: 0] += 1 }
    }

    /// Records one forward pass and decoding of `model` in `arithmetic`, and how long its request waited.
    func recordInference(model: String, arithmetic: String, seconds: Double, queued: Double) {
        lock.withLock {
            inferenceSeconds[ModelKey(model: model, arithmetic: arithmetic), default: Histogram()].observe(seconds)
            queueSeconds.observe(queued)
        }
    }

    /// What the status page shows of one endpoint: requests answered, how many with a status of
    /// 400 or more, and latency quantiles in seconds (estimated from the histogram).
    struct EndpointSummary: Equatable, Sendable {
        let endpoint: String
        let requests: Int
        let errors: Int
        let p50: Double?, p90: Double?, p99: Double?
    }

    /// Every endpoint that answered a request, by name.
    func endpointSummaries() -> [EndpointSummary] {
        lock.withLock {
            requestSeconds.keys.sorted().map { endpoint in
                let answered = requests.filter { $0.key.endpoint == endpoint }
                let histogram = requestSeconds[endpoint] ?? Histogram()
                return EndpointSummary(endpoint: endpoint, requests: answered.values.reduce(0, +),
                                       errors: answered.filter { $0.key.status >= 400 }.values.reduce(0, +),
                                       p50: histogram.quantile(0.5), p90: histogram.quantile(0.9), p99: histogram.quantile(0.99))
            }
        }
    }

    /// When the metrics (the server) started.
    var startDate: Date { started }

    /// Requests answered with `status` at `endpoint` so far.
    func requestCount(endpoint: String, status: Int) -> Int {
        lock.withLock { requests[Outcome(endpoint: endpoint, status: status)] ?? 0 }
    }

    /// Prometheus' text exposition format (version 0.0.4): these counters and histograms, then
    /// the point-in-time `counters` and `gauges` (name, help, value) the caller reads.
    func prometheusText(counters: [(name: String, help: String, value: Double)], gauges: [(name: String, help: String, value: Double)]) -> String {
        var out: [String] = []
        func family(_ name: String, _ type: String, _ help: String) {
            out.append("# HELP \(name) \(help)")
            out.append("# TYPE \(name) \(type)")
        }
        lock.withLock {
            family("swiftdarknet_requests_total", "counter", "Requests answered, by endpoint and HTTP status (ZMQ: 200, or the status of the error).")
            for (key, count) in requests.sorted(by: { ($0.key.endpoint, $0.key.status) < ($1.key.endpoint, $1.key.status) }) {
                out.append("swiftdarknet_requests_total{endpoint=\"\(escape(key.endpoint))\",code=\"\(key.status)\"} \(count)")
            }
            family("swiftdarknet_request_errors_total", "counter", "Requests that failed or were refused, by endpoint and reason.")
            for (key, count) in errors.sorted(by: { ($0.key.endpoint, $0.key.reason) < ($1.key.endpoint, $1.key.reason) }) {
                out.append("swiftdarknet_request_errors_total{endpoint=\"\(escape(key.endpoint))\",reason=\"\(escape(key.reason))\"} \(count)")
            }
            family("swiftdarknet_request_duration_seconds", "histogram", "Time from a request's arrival to its response: queue, image decoding, inference.")
            for (endpoint, histogram) in requestSeconds.sorted(by: { $0.key < $1.key }) {
                out += histogram.lines(name: "swiftdarknet_request_duration_seconds", labels: "endpoint=\"\(escape(endpoint))\"")
            }
            family("swiftdarknet_inference_duration_seconds", "histogram", "Forward pass and detection decoding of one image, by model and arithmetic.")
            for (key, histogram) in inferenceSeconds.sorted(by: { ($0.key.model, $0.key.arithmetic) < ($1.key.model, $1.key.arithmetic) }) {
                out += histogram.lines(name: "swiftdarknet_inference_duration_seconds",
                                       labels: "model=\"\(escape(key.model))\",arithmetic=\"\(escape(key.arithmetic))\"")
            }
            family("swiftdarknet_queue_wait_seconds", "histogram", "Time a request waited in the queue for a worker.")
            out += queueSeconds.lines(name: "swiftdarknet_queue_wait_seconds", labels: "")
        }
        family("swiftdarknet_model_load_seconds", "gauge", "Time to parse, plan and load each model at start.")
        for model in models {
            out.append("swiftdarknet_model_load_seconds{model=\"\(escape(model.name))\"} \(formatNumber(model.loadSeconds))")
        }
        family("swiftdarknet_model_info", "gauge", "1 for each model served at start, with the arithmetic its layers compute in (float32, bfloat16, int8, ...).")
        for model in models {
            out.append("swiftdarknet_model_info{model=\"\(escape(model.name))\",arithmetic=\"\(escape(model.arithmetic))\"} 1")
        }
        family("process_start_time_seconds", "gauge", "Start time of the server since the Unix epoch.")
        out.append("process_start_time_seconds \(formatNumber(started.timeIntervalSince1970.rounded()))")
        for (type, samples) in [("counter", counters), ("gauge", gauges)] {
            for sample in samples {
                family(sample.name, type, sample.help)
                out.append("\(sample.name) \(formatNumber(sample.value))")
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// A label value with `\`, `"` and line feeds escaped.
    private func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
