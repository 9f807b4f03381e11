import Foundation

/// `GET /`: the server's state on one self-contained HTML page (no external file, script or
/// font) and a form that sends a photo to `/v1/vision/detection` and draws the boxes returned.
///
/// ```swift
/// let page = StatusPage(models: [...], uptimeSeconds: 42, endpoints: metrics.endpointSummaries(),
///                       queue: .init(waiting: 0, capacity: 16, running: 1, workers: 2, connections: 3),
///                       draining: false, apiKeyRequired: false, defaultConfidence: 0.4)
/// let bytes = Array(page.html.utf8)
/// ```
struct StatusPage: Sendable {
    /// One served model as the page lists it.
    struct Model: Sendable {
        let name: String
        let input: String
        let classes: Int
        let arithmetic: String
        let loadSeconds: Double
        /// File path and SHA-256 (nil while being computed or unknown) of the cfg and weights.
        let cfg: (path: String, sha256: String?)?
        let weights: (path: String, sha256: String?)?
    }

    /// The work queue now.
    struct Queue: Sendable {
        let waiting: Int, capacity: Int, running: Int, workers: Int, connections: Int
    }

    let models: [Model]
    let uptimeSeconds: Double
    let endpoints: [ServerMetrics.EndpointSummary]
    let queue: Queue
    let draining: Bool
    let apiKeyRequired: Bool
    let defaultConfidence: Float

    var html: String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>swift-darknet serve</title><style>\(StatusPageAssets.style)</style></head>
        <body><h1>swift-darknet serve <span class="\(draining ? "down" : "up")" id="state">\(draining ? "draining" : "serving")</span></h1>
        <p>Up \(Self.duration(uptimeSeconds)). Queue: <span id="queue">\(queue.waiting) of \(queue.capacity)</span> waiting,
        \(queue.running) of \(queue.workers) workers busy, \(queue.connections) HTTP connections.
        <a href="/">refresh</a> · <a href="/metrics">metrics</a> · <a href="/health">health</a></p>
        <h2>Models</h2>
        <table id="models"><tr><th>name</th><th>input</th><th>classes</th><th>arithmetic</th><th>loaded in</th><th>files (SHA-256)</th></tr>
        \(models.map(Self.row).joined(separator: "\n"))
        </table>
        <h2>Requests</h2>
        <table id="requests"><tr><th>endpoint</th><th>answered</th><th>errors</th><th>p50</th><th>p90</th><th>p99</th></tr>
        \(endpoints.map(Self.row).joined(separator: "\n"))
        </table>
        <p class="note">Latency from arrival to response; percentiles estimated from the histogram buckets of /metrics.</p>
        <h2>Try a photo</h2>
        <form id="try" action="/v1/vision/detection" method="post" enctype="multipart/form-data">
        <input type="file" name="image" accept="image/*" required>
        <label>min_confidence <input type="number" name="min_confidence" min="0" max="1" step="0.05" value="\(defaultConfidence)"></label>
        \(apiKeyRequired ? #"<label>api_key <input type="password" name="api_key"></label>"# : "")
        <button type="submit">Detect</button></form>
        <p id="result-status"></p>
        <canvas id="canvas" width="0" height="0"></canvas>
        <ol id="detections"></ol>
        <script>\(StatusPageAssets.script)</script>
        </body></html>
        """
    }

    private static func row(_ model: Model) -> String {
        let files = [("cfg", model.cfg), ("weights", model.weights)].compactMap { kind, file in
            file.map { "\(kind) \(escape($0.path))<br><code>\($0.sha256 ?? "computing")</code>" }
        }
        return "<tr><td>\(escape(model.name))</td><td>\(model.input)</td><td>\(model.classes)</td><td>\(model.arithmetic)</td>"
            + "<td>\(String(format: "%.2f s", model.loadSeconds))</td><td>\(files.isEmpty ? "—" : files.joined(separator: "<br>"))</td></tr>"
    }

    private static func row(_ endpoint: ServerMetrics.EndpointSummary) -> String {
        let cells = [endpoint.p50, endpoint.p90, endpoint.p99].map { $0.map { String(format: "%.1f ms", $0 * 1000) } ?? "—" }
        return "<tr><td>\(escape(endpoint.endpoint))</td><td>\(endpoint.requests)</td><td>\(endpoint.errors)</td>"
            + cells.map { "<td>\($0)</td>" }.joined() + "</tr>"
    }

    /// `3 d 4 h`, `2 h 5 min`, `4 min 2 s`, `12 s`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds)
        let (days, hours, minutes, rest) = (total / 86_400, total / 3600 % 24, total / 60 % 60, total % 60)
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return "\(hours) h \(minutes) min" }
        if minutes > 0 { return "\(minutes) min \(rest) s" }
        return "\(rest) s"
    }

    /// `text` safe inside HTML elements and quoted attributes.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
