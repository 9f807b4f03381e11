/// What an HTTP request asks for, from its method and path.
enum HTTPRoute: Equatable, Sendable {
    /// `POST /v1/vision/detection` (model nil: the first model) or `/v1/vision/custom/<name>`.
    case detect(model: String?)
    /// `POST` (or `GET`) `/v1/vision/custom/list`.
    case modelList
    /// `GET /`: the status page.
    case statusPage
    /// `GET /health`.
    case health
    /// `GET /metrics`.
    case metrics
    /// The probes of orchestrators and clients: `/v2/health/live`, `/v2/health/ready`,
    /// `/v1/server/status/ping`.
    case probe(Probe)
    case notFound
    case methodNotAllowed(allowed: [String])

    init(method: String, path: String) {
        let customPrefix = "/v1/vision/custom/"
        let route: HTTPRoute, allowed: [String]
        switch path {
        case "/v1/vision/detection":
            (route, allowed) = (.detect(model: nil), ["POST"])
        case customPrefix + "list":
            (route, allowed) = (.modelList, ["POST", "GET"])
        case "/", "/index.html":
            (route, allowed) = (.statusPage, ["GET", "HEAD"])
        case "/health":
            (route, allowed) = (.health, ["GET", "HEAD"])
        case "/metrics":
            (route, allowed) = (.metrics, ["GET", "HEAD"])
        case "/v2/health/live":
            (route, allowed) = (.probe(.live), ["GET", "HEAD"])
        case "/v2/health/ready":
            (route, allowed) = (.probe(.ready), ["GET", "HEAD"])
        case "/v1/server/status/ping":
            (route, allowed) = (.probe(.ping), ["GET", "HEAD", "POST"])
        case _ where path.hasPrefix(customPrefix) && path.count > customPrefix.count:
            (route, allowed) = (.detect(model: String(path.dropFirst(customPrefix.count))), ["POST"])
        default:
            self = .notFound
            return
        }
        self = allowed.contains(method) ? route : .methodNotAllowed(allowed: allowed)
    }

    /// Whether the request asks for detections.
    var isDetection: Bool {
        if case .detect = self { true } else { false }
    }

    /// Whether it is a health check or a scrape (logged at `debug`).
    var isMonitoring: Bool {
        switch self {
        case .health, .metrics, .probe: true
        default: false
        }
    }

    /// The `endpoint` label of this route's metrics.
    var endpoint: String {
        switch self {
        case .detect(nil): "detection"
        case .detect(_?): "custom"
        case .modelList: "list"
        case .health: "health"
        case .statusPage: "status"
        case .metrics: "metrics"
        case .probe(let probe): probe.rawValue
        case .notFound, .methodNotAllowed: "other"
        }
    }
}

/// A probe and what it answers: `live` (KServe v2 liveness: 200 until the process exits),
/// `ready` (KServe v2 readiness: 200 while taking requests, 503 from SIGTERM on) and `ping`
/// (CodeProject.AI's `{"success": true}`, 503 while draining).
enum Probe: String, Equatable, Sendable {
    case live, ready, ping
}

/// A response to send: status, body and the headers it needs.
struct HTTPResponse: Sendable {
    var status: Int
    var contentType: String
    var body: [UInt8]
    var headers: [(String, String)] = []

    static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: value.jsonBytes())
    }

    /// `{"success": false, "error": ..., "code": status}`, with `Retry-After` on 503 and `Allow`
    /// on 405.
    static func error(_ error: any HTTPStatusError) -> HTTPResponse {
        var response = json(DeepStackError(String(describing: error), status: error.status), status: error.status)
        if error.status == 503 { response.headers.append(("Retry-After", "1")) }
        if case ServeError.methodNotAllowed(_, let allowed)? = error as? ServeError {
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
        }
        return response
    }
}
