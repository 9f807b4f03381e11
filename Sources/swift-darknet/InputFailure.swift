import Foundation

/// The stderr line for one input of many (an image of a batch) that failed: the error alone when
/// it starts by naming the input (as every file error does: `/abs/dog.jpg: ...`), else the input
/// first, so each line says which input it is about without naming it twice.
func inputFailureLine(_ input: String, _ error: any Error) -> String {
    let message = String(describing: error)
    let named = [input, URL(fileURLWithPath: input).path].contains { message.hasPrefix($0 + ":") }
    return named ? "swift-darknet: \(message)\n" : "swift-darknet: \(input): \(message)\n"
}
