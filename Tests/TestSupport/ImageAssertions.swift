import Darknet
import DarknetImage
import XCTest

extension XCTestCase {
    /// Fails unless decoding throws an `ImageFileError` that `matches` accepts (the image tests'
    /// unit and file tiers both check decoding errors this way).
    public func assertError(_ body: @autoclosure () throws(ImageFileError) -> PlanarImage, _ message: String = "",
                            file: StaticString = #filePath, line: UInt = #line,
                            matches: (ImageFileError) -> Bool) {
        do {
            let image = try body()
            XCTFail("expected an error, decoded \(image.width)x\(image.height). \(message)", file: file, line: line)
        } catch {
            XCTAssertTrue(matches(error), "unexpected error \(error). \(message)", file: file, line: line)
        }
    }
}

/// The reason an `ImageFileError` gives for a damaged or refused file (`.corrupt`,
/// `.unsupportedVariant`), else "".
public func imageErrorReason(_ error: ImageFileError) -> String {
    switch error {
    case .corrupt(_, let reason), .unsupportedVariant(_, let reason): reason
    default: ""
    }
}
