import Foundation

/// Measurement helpers shared by the benchmark executables.

/// Monotonic wall clock and process CPU time.
public enum Clock {
    /// Wall-clock nanoseconds since an arbitrary start.
    public static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Milliseconds elapsed since `start` (a value of `now`).
    public static func milliseconds(since start: UInt64) -> Double { Double(now - start) / 1e6 }

    /// CPU time of the whole process in milliseconds (all threads): robust to a busy machine.
    public static var processCPU: Double {
        var usage = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &usage)
        return Double(usage.tv_sec) * 1e3 + Double(usage.tv_nsec) / 1e6
    }
}

/// Resident memory of this process, from `/proc/self/status`.
public enum Memory {
    /// Peak resident memory (`VmHWM`) in megabytes, 0 where unavailable.
    public static func peakResidentMegabytes() -> Double { Double(statusKilobytes("VmHWM:") ?? 0) / 1024 }

    /// Current resident memory (`VmRSS`) in kilobytes, 0 where unavailable.
    public static func residentKilobytes() -> Int { statusKilobytes("VmRSS:") ?? 0 }

    private static func statusKilobytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}

/// Minimum, median and maximum of a sample.
public struct Stats: Sendable {
    public let min: Double, median: Double, max: Double

    public init(_ values: [Double]) {
        let sorted = values.sorted()
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        median = sorted.isEmpty ? 0 : (sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                                       : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2)
    }
}

/// Prints a loud warning when the tool was built without optimisation.
public func warnIfDebugBuild(tool: String) {
    #if DEBUG
    FileHandle.standardError.write(Data("""
        ********************************************************************
        \(tool) was built in DEBUG: timings are meaningless.
        Run: swift run -c release \(tool) ...
        ********************************************************************\n
        """.utf8))
    #endif
}

/// Prints `message` prefixed by the tool's name on stderr and exits with status 1.
public func fail(_ tool: String, _ message: String) -> Never {
    FileHandle.standardError.write(Data("\(tool): \(message)\n".utf8))
    exit(1)
}
