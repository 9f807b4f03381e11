import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `Tools/model-server/model_server.py` on 127.0.0.1, serving a temporary folder: started by a
/// test, stopped by its tearDown (and exiting by itself after `lifetime` seconds regardless).
final class ModelServer {
    static let script = TestPaths.packageRoot.appendingPathComponent("Tools/model-server/model_server.py")

    let root: URL
    let port: Int
    private let process: ChildProcess

    init(lifetime: Int = 300) throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/python3") else {
            XCTFail("the model tests need /usr/bin/python3 (scripts/setup.sh --fixtures installs it)")
            throw ToolFailure(message: "no python3")
        }
        root = try TemporaryDirectory.make("model-server")
        process = try ChildProcess("/usr/bin/python3", [Self.script.path, "--root", root.path, "--lifetime", String(lifetime)])
        guard let line = process.waitForLine(startingWith: "PORT ", timeout: 20), let found = Int(line.dropFirst(5)) else {
            process.stop()
            XCTFail("the test server did not start: \(process.stdout) \(process.stderr)")
            throw ToolFailure(message: "server did not start")
        }
        port = found
    }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its folder.
    func stop() {
        process.stop(grace: 5)
        try? FileManager.default.removeItem(at: root)
    }

    func url(_ name: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(name)")! }

    /// Puts a file the server serves (replacing it gives it a new ETag).
    func put(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: root.appendingPathComponent(name))
    }

    /// The ETag the server gives a file now (the same formula as the script's).
    func etag(_ name: String) throws -> String? {
        let path = root.appendingPathComponent(name).path
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return "\"" + String(nanoseconds, radix: 16) + "-" + String(info.st_size, radix: 16) + "\""
    }

    /// Injects a fault (see the script's documentation).
    func fault(_ name: String, _ settings: [String: Any]) throws {
        var body = settings
        body["path"] = "/" + name
        _ = try Self.http(url("_control"), body: try JSONSerialization.data(withJSONObject: body))
    }

    /// Forgets faults and the request log.
    func reset() throws {
        _ = try Self.http(url("_control"), body: try JSONSerialization.data(withJSONObject: ["reset": true]))
    }

    /// The requests so far: path, range, if_range, if_none_match, if_modified_since, status.
    func requests() throws -> [[String: Any]] {
        let data = try Self.http(url("_log"), body: nil)
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    /// The requests for one file, as (status, Range header) pairs.
    func requests(for name: String) throws -> [(status: Int, range: String?, ifNoneMatch: String?)] {
        try requests().filter { $0["path"] as? String == "/" + name }.map {
            ($0["status"] as? Int ?? -1, $0["range"] as? String, $0["if_none_match"] as? String)
        }
    }

    private static func http(_ url: URL, body: Data?) throws -> Data {
        var request = URLRequest(url: url, timeoutInterval: 10)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = body
        }
        let box = ResponseBox()
        let task = URLSession.shared.dataTask(with: request) { data, _, error in box.set(data, error) }
        task.resume()
        guard box.done.wait(timeout: .now() + 15) == .success else {
            task.cancel()
            throw ToolFailure(message: "\(url): no answer from the test server")
        }
        return try box.get()
    }

    private final class ResponseBox: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private var data: Data?
        private var error: (any Error)?
        func set(_ data: Data?, _ error: (any Error)?) {
            self.data = data
            self.error = error
            done.signal()
        }
        func get() throws -> Data {
            if let error { throw error }
            return data ?? Data()
        }
    }
}

struct ToolFailure: Error { let message: String }

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
    String(decoding: (try? JSONSerialization.data(withJSONObject: [text])) ?? Data(), as: UTF8.self).dropFirst().dropLast().description
}
