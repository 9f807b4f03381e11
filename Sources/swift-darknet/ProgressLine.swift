import DarknetModels
import Foundation

/// One self-overwriting progress line on stderr while a model downloads (only on a terminal,
/// at most ten updates a second).
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private var lastShown = DispatchTime(uptimeNanoseconds: 0)
    private var shown = false

    /// A progress line if stderr is a terminal, else `nil` (logs get no carriage returns).
    static func onTerminal() -> ProgressLine? {
        isatty(STDERR_FILENO) != 0 ? ProgressLine() : nil
    }

    func show(_ progress: DownloadProgress) {
        lock.withLock {
            let now = DispatchTime.now()
            let finished = progress.fileTotal == progress.fileBytes
            guard finished || now.uptimeNanoseconds - lastShown.uptimeNanoseconds > 100_000_000 else { return }
            lastShown = now
            shown = true
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + Self.text(progress)).utf8))
        }
    }

    /// Ends the line (a newline after the last update).
    func end() {
        lock.withLock {
            if shown { FileHandle.standardError.write(Data("\n".utf8)) }
            shown = false
        }
    }

    static func text(_ progress: DownloadProgress) -> String {
        func megabytes(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / 1_000_000) }
        var text = "downloading \(progress.url.lastPathComponent): \(megabytes(progress.fileBytes))"
        if let total = progress.fileTotal, total > 0 {
            text += String(format: " / %@ MB (%.0f%%)", megabytes(total), Double(progress.fileBytes) / Double(total) * 100)
        } else {
            text += " MB"
        }
        return text
    }
}
