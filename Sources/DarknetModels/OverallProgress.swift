import Foundation

/// Turns per-file byte counts into `DownloadProgress` values with the model-wide totals.
/// Files are fetched one after another; the overall total is known once the last file's size is.
struct OverallProgress {
    let files: Int
    let report: (@Sendable (DownloadProgress) -> Void)?
    private var finishedBytes: Int64 = 0
    private var index = 0

    init(files: Int, report: (@Sendable (DownloadProgress) -> Void)?) {
        self.files = files
        self.report = report
    }

    /// The reporter for the next file's transfer.
    func reporter(role: ModelFileRole, url: URL) -> FileProgressReporter {
        FileProgressReporter(role: role, url: url, base: finishedBytes, isLast: index == files - 1, report: report)
    }

    /// The next file was transferred, `bytes` long.
    mutating func finish(_ bytes: Int64) {
        finishedBytes += bytes
        index += 1
    }

    /// The next file needed no transfer.
    mutating func skip() { index += 1 }
}

/// Reports one file's progress (called from the transfer's thread).
struct FileProgressReporter: Sendable {
    let role: ModelFileRole
    let url: URL
    let base: Int64
    let isLast: Bool
    let report: (@Sendable (DownloadProgress) -> Void)?

    func report(_ bytes: Int64, _ total: Int64?) {
        guard let report else { return }
        report(DownloadProgress(role: role, url: url, fileBytes: bytes, fileTotal: total, overallBytes: base + bytes,
                                overallTotal: isLast ? total.map { base + $0 } : nil))
    }
}
