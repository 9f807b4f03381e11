import Foundation

/// What one installed version holds (`manifest.json` in its folder): per file, where it came
/// from, its checksum and size, and the server's validators for the next update check.
struct CacheManifest: Codable, Equatable, Sendable {
    struct Entry: Codable, Equatable, Sendable {
        var url: String
        var sha256: String
        var size: Int64
        var validators: TransferValidators
    }

    var files: [ModelFileRole: Entry]

    static let fileName = "manifest.json"

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    static func decode(_ data: Data) -> CacheManifest? {
        try? JSONDecoder().decode(CacheManifest.self, from: data)
    }
}

/// What an interrupted download left (`partial/<role>.json` beside `partial/<role>.part`): the
/// URL and validators its bytes came from, so it is resumed only against the same file.
struct ResumeState: Codable, Equatable, Sendable {
    var url: String
    var validators: TransferValidators
}
