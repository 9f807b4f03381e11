import DarknetModels
import Foundation
import XCTest

/// The hand-written SHA-256 against FIPS 180-4's examples and itself fed in pieces
/// (`SHA256CommandTests` compares it with `sha256sum`).
final class SHA256Tests: XCTestCase {
    func testFIPSVectors() {
        let vectors: [(String, String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
             "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        ]
        for (message, digest) in vectors {
            XCTAssertEqual(ModelChecksum.hex(of: Array(message.utf8)), digest, "message '\(message)'")
        }
        XCTAssertEqual(ModelChecksum.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Feeding the bytes in pieces of every awkward size gives the one-shot digest, across every
    /// padding case (message lengths 0...130 cross the 55/56/64-byte boundaries).
    func testStreamingMatchesOneShot() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for length in Array(0...130) + [999, 1000] {
            let message = Array(bytes[0..<length])
            let whole = ModelChecksum.hex(of: message)
            for piece in [1, 3, 63, 64, 65] {
                var hasher = ModelChecksum()
                var start = 0
                while start < length {
                    hasher.update(Array(message[start..<min(length, start + piece)]))
                    start += piece
                }
                XCTAssertEqual(hasher.finalize().hexString, whole, "length \(length), pieces of \(piece)")
            }
        }
    }
}
