import Darknet
import Foundation

/// An IPv4 or IPv6 address and port to listen on, resolved from a host name or literal.
struct SocketAddress: Sendable {
    private var storage = sockaddr_storage()
    /// Whether it is IPv6 (`sockaddr_in6`).
    let isIPv6: Bool

    /// Resolves `host` (`127.0.0.1`, `0.0.0.0`, `::1`, `::`, `localhost`) with `port`.
    init(host: String, port: Int) throws(ServeStartError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw .address(host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(result) }
        let candidates = sequence(first: first) { $0.pointee.ai_next }
        guard let chosen = candidates.first(where: { $0.pointee.ai_family == AF_INET })
                ?? candidates.first(where: { $0.pointee.ai_family == AF_INET6 }) else {
            throw .address(host, reason: "no IPv4 or IPv6 address")
        }
        isIPv6 = chosen.pointee.ai_family == AF_INET6
        withUnsafeMutableBytes(of: &storage) { bytes in
            bytes.copyMemory(from: UnsafeRawBufferPointer(start: chosen.pointee.ai_addr, count: Int(chosen.pointee.ai_addrlen)))
        }
    }

    /// Calls `body` with the address as a `sockaddr` pointer.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: storage) { try body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }

    /// The numeric text of a client's address (`127.0.0.1`, `::1`), or "?".
    static func text(of address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "?" }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var raw = v4.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)) != nil ? Self.string(buffer) : "?"
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var raw = v6.pointee.sin6_addr
                return inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil ? Self.string(buffer) : "?"
            }
        default:
            return "?"
        }
    }

    /// A NUL-terminated C string in `buffer`.
    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Why a server could not start: an address that does not resolve, a port in use, a ZMQ
/// endpoint that cannot be bound, a configuration out of range.
public enum ServeStartError: DarknetError, Equatable, Sendable {
    case address(String, reason: String)
    case http(host: String, port: Int, reason: String)
    case zmq(endpoint: String, reason: String)
    case configuration(String)
    case models(String)

    public var description: String {
        switch self {
        case .address(let host, let reason): "cannot listen on '\(host)': \(reason)"
        case .http(let host, let port, let reason): "cannot serve HTTP on \(host):\(port): \(reason)"
        case .zmq(let endpoint, let reason): "cannot bind the ZMQ endpoint \(endpoint): \(reason)"
        case .configuration(let message): message
        case .models(let message): message
        }
    }
}
