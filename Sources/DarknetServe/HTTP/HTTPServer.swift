import CMicroHTTPD
import Foundation

/// The DeepStack / CodeProject.AI HTTP API on libmicrohttpd: one internal polling thread
/// accepts connections and reads requests; a detection request's connection is suspended while
/// its job waits in the work queue and runs, and resumed with the response.
///
/// Bounds: `connectionLimit` connections (more wait in the listen backlog), `connectionMemoryLimit`
/// bytes each for headers, `maxUploadBytes` of body (413 before reading it when
/// `Content-Length` says more; a body that grows past it closes the connection), the idle
/// timeout (libmicrohttpd) and the request timeout (`ConnectionWatchdog`).
final class HTTPServer: @unchecked Sendable {
    private let core: ServerCore
    private let watchdog: ConnectionWatchdog
    private var daemon: OpaquePointer?
    /// The port it listens on.
    private(set) var port = 0

    init(core: ServerCore) throws(ServeStartError) {
        let configuration = core.configuration
        self.core = core
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        watchdog = ConnectionWatchdog(timeout: configuration.requestTimeout)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_SUSPEND_RESUME.rawValue | MHD_USE_EPOLL.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            var settings = SDHTTPDaemonSettings(
                flags: flags, address: sockaddr,
                connectionLimit: UInt32(clamping: configuration.connectionLimit),
                idleTimeout: UInt32(clamping: Int(configuration.idleTimeout.seconds.rounded(.up))),
                connectionMemoryLimit: configuration.connectionMemoryLimit,
                perAddressConnectionLimit: UInt32(clamping: configuration.perClientConnectionLimit),
                listenBacklog: 128,
                handler: httpAccessHandler, completed: httpRequestCompleted, notify: httpConnectionNotice,
                context: context)
            return sd_http_start(&settings)
        }
        guard let started else {
            watchdog.stop()
            let reason = errno == EADDRINUSE ? "the address is in use" : errno != 0 ? String(cString: strerror(errno)) : "libmicrohttpd could not start"
            throw .http(host: configuration.host, port: configuration.port, reason: reason)
        }
        daemon = started
        port = Int(sd_http_port(started))
    }

    /// Stops the daemon (every suspended request must have been resumed: the work queue is
    /// closed first) and closes the connections left.
    func stop() {
        guard let daemon else { return }
        MHD_stop_daemon(daemon)
        self.daemon = nil
        watchdog.stop()
    }

    var connectionCount: Int { watchdog.count }
    var cutOffCount: Int { watchdog.cutOffCount }

    // MARK: libmicrohttpd callbacks (on its polling thread)

    /// Called when the headers are in, for every piece of the body, and once more (with no data)
    /// when the body is complete and again after each resume.
    fileprivate func handle(_ connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
                            uploadSize: UnsafeMutablePointer<Int>, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let opaque = slot.pointee else {
            let exchange = begin(connection, url: url, method: method)
            slot.pointee = Unmanaged.passRetained(exchange).toOpaque()
            // An answer to a request with a body nobody wants (413, 404, 503) goes before the
            // body is read: libmicrohttpd then closes the connection instead of reading it, a
            // 100 MB one included. Other answers go in the next call, which keeps the connection.
            if exchange.hasBody, let response = exchange.takeResponse() { return send(response, on: exchange) }
            return .YES
        }
        let exchange = Unmanaged<HTTPExchange>.fromOpaque(opaque).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            return receive(exchange, upload, uploadSize)
        }
        if let response = exchange.takeResponse() { return send(response, on: exchange) }
        if exchange.submitted { return .YES }
        return submit(exchange)
    }

    /// The start of a request: routing, and the answers that need no body.
    private func begin(_ connection: OpaquePointer, url: String, method: String) -> HTTPExchange {
        let header = { (name: String) in MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) } }
        let exchange = HTTPExchange(connection: connection, method: method, path: url,
                                    client: SocketAddress.text(of: sd_http_client_address(connection)),
                                    contentType: header("Content-Type"), contentLength: header("Content-Length").flatMap { Int($0) },
                                    chunked: header("Transfer-Encoding") != nil)
        core.exchangeStarted()
        do throws(ServeError) {
            switch exchange.route {
            case .health: exchange.respond(core.healthResponse(connections: watchdog.count))
            case .statusPage: exchange.respond(core.statusPageResponse(connections: watchdog.count))
            case .probe(let probe): exchange.respond(core.probeResponse(probe))
            case .metrics: exchange.respond(core.metricsResponse(connections: watchdog.count, cutOff: watchdog.cutOffCount))
            case .modelList: exchange.respond(core.modelListResponse())
            case .notFound: throw .notFound(path: url)
            case .methodNotAllowed(let allowed): throw .methodNotAllowed(method: method, allowed: allowed)
            case .detect(let name):
                let limit = core.configuration.maxUploadBytes
                if core.isDraining { throw .draining }
                _ = try core.model(named: name)
                if let length = exchange.contentLength, length > limit { throw .uploadTooLarge(length: length, limit: limit) }
                exchange.body.reserveCapacity(min(exchange.contentLength ?? 64 << 10, limit))
            }
        } catch {
            _ = fail(exchange, error)
        }
        return exchange
    }

    /// An error response, noted on the exchange for the log.
    private func fail(_ exchange: HTTPExchange, _ error: any HTTPStatusError) -> HTTPResponse {
        let response = HTTPResponse.error(error)
        exchange.respond(response, error: error)
        return response
    }

    /// A piece of the body.
    private func receive(_ exchange: HTTPExchange, _ data: UnsafePointer<CChar>?, _ size: UnsafeMutablePointer<Int>) -> MHD_Result {
        let count = size.pointee
        size.pointee = 0
        exchange.received += count
        guard case .detect = exchange.route, !exchange.submitted else { return .YES }
        guard exchange.body.count + count <= core.configuration.maxUploadBytes else {
            exchange.abandon(note: String(describing: ServeError.uploadTooLarge(length: nil, limit: core.configuration.maxUploadBytes)),
                             reason: "upload_too_large")
            return .NO   // closes the connection: a response cannot be queued in the middle of a body
        }
        if let data { exchange.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count)) }
        return .YES
    }

    /// The body is complete: parse it and queue the detection, or answer the error.
    private func submit(_ exchange: HTTPExchange) -> MHD_Result {
        guard case .detect(let name) = exchange.route else { return .NO }
        let request: DetectionRequest, model: ServedModel
        do {
            request = try DetectionRequest(contentType: exchange.contentType, body: exchange.body)
            if let key = core.configuration.apiKey, request.apiKey != key { throw ServeError.unauthorized }
            model = try core.model(named: name)
        } catch let error as any HTTPStatusError {
            return send(fail(exchange, error), on: exchange)
        } catch {
            return send(fail(exchange, ServeError.inferenceFailed(String(describing: error))), on: exchange)
        }
        exchange.body = []   // the request holds its own slice of the bytes
        exchange.submitted = true
        watchdog.processing(exchange.connection)
        MHD_suspend_connection(exchange.connection)
        let core = core
        let accepted = core.pipeline.submit { waited in
            switch core.prepare(request, model: model, waited: waited) {
            case .failure(let error):
                exchange.respond(.error(error), error: error)
                MHD_resume_connection(exchange.connection)
                return nil
            case .success(let prepared):
                return {
                    let (response, inference, predictions, error) = core.answer(prepared, model: model, arrived: exchange.arrived, waited: waited)
                    exchange.respond(response, inferenceSeconds: inference, predictions: predictions, error: error)
                    MHD_resume_connection(exchange.connection)
                }
            }
        }
        if !accepted {
            _ = fail(exchange, core.isDraining ? ServeError.draining : ServeError.queueFull(capacity: core.pipeline.capacity))
            MHD_resume_connection(exchange.connection)
        }
        return .YES
    }

    /// Queues `response` on the exchange's connection.
    private func send(_ response: HTTPResponse, on exchange: HTTPExchange) -> MHD_Result {
        let body = response.body
        guard let mhdResponse = body.withUnsafeBytes({ bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }) else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        MHD_add_response_header(mhdResponse, "Content-Type", response.contentType)
        for (name, value) in response.headers { MHD_add_response_header(mhdResponse, name, value) }
        // Draining, every answer closes its connection: the client (or balancer) goes elsewhere,
        // and the drain is not held open by idle keep-alive connections.
        if core.isDraining { MHD_add_response_header(mhdResponse, "Connection", "close") }
        watchdog.restart(exchange.connection)
        return MHD_queue_response(exchange.connection, UInt32(response.status), mhdResponse)
    }

    /// The request ended (response sent, client gone, timeout, shutdown): log, count, release.
    fileprivate func completed(_ exchange: HTTPExchange, termination: MHD_RequestTerminationCode) {
        if termination != .REQUEST_TERMINATED_COMPLETED_OK {
            exchange.abandon(note: Self.describe(termination) + (exchange.result.note.map { ": " + $0 } ?? ""),
                             reason: exchange.result.errorReason ?? "client_gone")
        }
        let outcome = exchange.result
        let seconds = exchange.arrived.duration(to: .now).seconds
        let endpoint = exchange.route.endpoint
        let delivered = termination == .REQUEST_TERMINATED_COMPLETED_OK
        if delivered {
            core.metrics.recordRequest(endpoint: endpoint, status: outcome.status, seconds: seconds, errorReason: outcome.errorReason)
        } else {
            core.metrics.recordAbandoned(endpoint: endpoint, reason: outcome.errorReason ?? "client_gone")
        }
        let routine = exchange.route.isMonitoring
        core.log(RequestRecord(client: exchange.client, request: "\(exchange.method) \(exchange.path)", status: delivered ? outcome.status : 0,
                               bytesIn: exchange.received, bytesOut: delivered ? outcome.bytesOut : 0,
                               seconds: seconds, inferenceSeconds: outcome.inferenceSeconds, predictions: outcome.predictions,
                               note: outcome.note, routine: routine))
        watchdog.restart(exchange.connection)
        core.exchangeEnded()
    }

    fileprivate func connectionNotice(_ connection: OpaquePointer, _ code: MHD_ConnectionNotificationCode) {
        if code == .CONNECTION_NOTIFY_STARTED {
            watchdog.opened(connection, socket: sd_http_connection_socket(connection))
        } else {
            watchdog.closed(connection)
        }
    }

    private static func describe(_ termination: MHD_RequestTerminationCode) -> String {
        switch termination {
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: "no response sent: the connection timed out"
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: "no response sent: the server stopped"
        case .REQUEST_TERMINATED_CLIENT_ABORT, .REQUEST_TERMINATED_READ_ERROR: "no response sent: the client closed the connection"
        default: "no response sent: the connection failed"
        }
    }
}

// C entry points: `cls` is the HTTPServer, unretained (it outlives its daemon).

private let httpAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, slot in
    guard let cls, let connection, let uploadSize, let slot else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.handle(connection, url: url.map { String(cString: $0) } ?? "/", method: method.map { String(cString: $0) } ?? "",
                         upload: upload, uploadSize: uploadSize, slot: slot)
}

private let httpRequestCompleted: MHD_RequestCompletedCallback = { cls, _, slot, termination in
    guard let cls, let opaque = slot?.pointee else { return }
    slot?.pointee = nil
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    server.completed(Unmanaged<HTTPExchange>.fromOpaque(opaque).takeRetainedValue(), termination: termination)
}

private let httpConnectionNotice: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().connectionNotice(connection, code)
}
