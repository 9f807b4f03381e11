import Darknet
import Dispatch

/// Loads the images of a list in order, each while the caller works on the one before: at
/// most two decoded images exist at once, whatever the list's length.
struct ImageLookAhead {
    let paths: [String]
    let load: @Sendable (String) throws -> PlanarImage

    /// Calls `body(index, image)` for every path in order; stops at the first error (a failed
    /// load or `body`'s).
    func forEach(_ body: (Int, PlanarImage) throws -> Void) throws {
        var pending = paths.isEmpty ? nil : Pending(path: paths[0], load: load)
        for index in paths.indices {
            let current = pending!.wait()
            pending = index + 1 < paths.count ? Pending(path: paths[index + 1], load: load) : nil
            try body(index, current.get())
        }
    }

    /// One image loading on a global queue.
    private final class Pending: @unchecked Sendable {
        // `result` is written once before `done` is signalled and read after `wait`.
        private var result: Result<PlanarImage, any Error>?
        private let done = DispatchSemaphore(value: 0)

        init(path: String, load: @escaping @Sendable (String) throws -> PlanarImage) {
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                result = Result { try load(path) }
                done.signal()
            }
        }

        func wait() -> Result<PlanarImage, any Error> {
            done.wait()
            return result!
        }
    }
}
