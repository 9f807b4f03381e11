import Foundation

/// The `video` command's self-overwriting status line on stderr (frames done / total, fps,
/// ETA), at most twice a second, for terminals only.
final class VideoProgressLine {
    private let enabled: Bool
    private var last: UInt64 = 0
    private var shown = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ text: () -> String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - last > 500_000_000 else { return }
        last = now
        shown = true
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text()).utf8))
    }

    func clear() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
