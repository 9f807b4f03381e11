import Foundation
import TestSupport

/// A plain TCP connection to 127.0.0.1 that writes requests byte for byte and reads responses:
/// what the bad-input tests need (partial bodies, slow headers, a client that leaves) and a
/// well-behaved client needs no more than.
final class LoopbackConnection {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private let socket: Int32
    private var buffered: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout` seconds.
    init(port: Int, timeout: Double = 60) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(socket)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
        setTimeout(timeout)
    }

    deinit { Glibc.close(socket) }

    /// Reads give up after `seconds`.
    func setTimeout(_ seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `bytes` (throws if the server closed the connection).
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Closes at once, with a reset (SO_LINGER 0) when `reset`.
    func close(reset: Bool = false) {
        if reset {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Reads one response (status line, headers, a `Content-Length` body).
    func response() throws -> HTTPReply {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffered[..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "not a status line: \(head)") }
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                while buffered.count < end + 4 + length {
                    guard try fill() else { throw Failure(description: "the connection closed inside the body of a \(status)") }
                }
                let body = Array(buffered[(end + 4)..<(end + 4 + length)])
                buffered.removeFirst(end + 4 + length)
                return HTTPReply(status: status, headers: headers, body: body)
            }
            guard try fill() else { throw Failure(description: "the connection closed before a response (\(buffered.count) bytes read)") }
        }
    }

    /// Whether the server closed the connection (end of stream or reset) within the read timeout.
    func isClosedByServer() -> Bool {
        do { while try fill() {} } catch { return (error as? Failure)?.description.contains("reset") ?? false }
        return true
    }

    /// Reads more; false at the end of the stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count == 0 { return false }
        guard count > 0 else {
            throw Failure(description: errno == EAGAIN ? "no response within the read timeout" : "recv: \(String(cString: strerror(errno))) (reset)")
        }
        buffered += chunk[..<count]
        return true
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffered.count >= needle.count else { return nil }
        return (0...(buffered.count - needle.count)).first { buffered[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

/// A response as read off the wire.
struct HTTPReply {
    let status: Int
    /// Header names lower case.
    let headers: [String: String]
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func json() throws -> [String: Any] { try jsonObject(text) }

    /// The predictions of a DeepStack response.
    func predictions() throws -> [(label: String, confidence: Double, left: Int, top: Int, right: Int, bottom: Int)] {
        guard let list = try json()["predictions"] as? [[String: Any]] else { throw LoopbackConnection.Failure(description: "no predictions: \(text)") }
        return try list.map { p in
            guard let label = p["label"] as? String, let confidence = p["confidence"] as? Double, let x0 = p["x_min"] as? Int,
                  let y0 = p["y_min"] as? Int, let x1 = p["x_max"] as? Int, let y1 = p["y_max"] as? Int else {
                throw LoopbackConnection.Failure(description: "not a prediction: \(p)")
            }
            return (label, confidence, x0, y0, x1, y1)
        }
    }
}

/// The bytes of an HTTP/1.1 request.
func httpRequest(_ method: String, _ path: String, contentType: String? = nil, body: [UInt8] = [], headers: [String] = []) -> [UInt8] {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if let contentType { head += "Content-Type: \(contentType)\r\n" }
    if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
    for header in headers { head += header + "\r\n" }
    return Array((head + "\r\n").utf8) + body
}

/// One request on a fresh connection to 127.0.0.1:`port`, and its response.
func exchange(port: Int, _ request: [UInt8], timeout: Double = 60) throws -> HTTPReply {
    let connection = try LoopbackConnection(port: port, timeout: timeout)
    try connection.send(request)
    return try connection.response()
}

/// `POST path` with a form holding `image` (and `fields`).
func postImage(port: Int, _ image: [UInt8], path: String = "/v1/vision/detection", filename: String = "image.jpg",
               fields: [(String, String)] = []) throws -> HTTPReply {
    var form = MultipartBody()
    form.file("image", filename: filename, image)
    for (name, value) in fields { form.field(name, value) }
    return try exchange(port: port, httpRequest("POST", path, contentType: form.contentType, body: form.finished))
}
