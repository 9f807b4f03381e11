import Foundation

/// How much the server logs: every request is one line at `info` (answered), `warning`
/// (refused or failed: 4xx, 503) or `error` (500), and `/health` and `/metrics` at `debug`;
/// lines below the chosen level are dropped.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error, none

    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }

    public var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        case .none: "none"
        }
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Where the server's log lines go, and from which level on.
public struct ServerLog: Sendable {
    public var level: LogLevel
    /// Receives each line (no trailing newline). Default: standard error.
    public var sink: @Sendable (String) -> Void

    public init(level: LogLevel = .info, sink: @escaping @Sendable (String) -> Void = ServerLog.standardError) {
        self.level = level
        self.sink = sink
    }

    /// Writes `line` and a newline to standard error in one call (lines of threads do not mix).
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Logs `message` at `level`, with a UTC timestamp (milliseconds) and the level's name.
    public func write(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= self.level, level != .none else { return }
        sink("\(Self.timestamp()) \(level.name) \(message())")
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = time_t(now.tv_sec)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(now.tv_nsec / 1_000_000))
    }
}

/// What one request's log line says.
struct RequestRecord: Sendable {
    /// The client's address, or "zmq".
    var client: String
    /// `POST /v1/vision/detection`, `zmq 1x416x416x3 uint8`, ...
    var request: String
    var status: Int
    var bytesIn: Int
    var bytesOut: Int
    var seconds: Double
    var inferenceSeconds: Double?
    var predictions: Int?
    /// An error message, or how the exchange ended when no response was sent.
    var note: String?
    /// Routine requests (health checks, scrapes) are logged at `debug`.
    var routine = false

    var level: LogLevel {
        if status == 0 { return .warning }   // no response was sent
        if routine && status < 400 { return .debug }
        return status >= 500 && status != 503 ? .error : status >= 400 ? .warning : .info
    }

    var line: String {
        var line = "\(client) \"\(request)\" \(status) in=\(bytesIn) out=\(bytesOut) " + String(format: "total=%.1fms", seconds * 1000)
        if let inferenceSeconds { line += String(format: " inference=%.1fms", inferenceSeconds * 1000) }
        if let predictions { line += " predictions=\(predictions)" }
        if let note { line += " note=\"\(note.replacingOccurrences(of: "\"", with: "'"))\"" }
        return line
    }
}
