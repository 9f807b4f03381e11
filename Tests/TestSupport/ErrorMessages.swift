import Darknet
import XCTest

/// Asserts that each error reads as its message both through `description` (string
/// interpolation) and through Foundation's `localizedDescription`.
public func assertMessages(_ cases: [(any DarknetError, String)], file: StaticString = #filePath, line: UInt = #line) {
    for (error, message) in cases {
        XCTAssertEqual(error.localizedDescription, message, "\(type(of: error))", file: file, line: line)
        XCTAssertEqual("\(error)", message, "\(type(of: error))", file: file, line: line)
    }
}
