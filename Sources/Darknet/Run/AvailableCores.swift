import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How many cores this process may use: the CPUs its affinity mask allows, capped by its cgroup's
/// CPU quota (so a container limited to 2 CPUs on a 64-core host counts 2).
///
/// `ProcessInfo.activeProcessorCount` counts the machine's online processors, whatever
/// `taskset`, `docker run --cpus` or a Kubernetes CPU limit allow. The command-line tools use
/// `AvailableCores.count` as the default of `--threads`; `Detector` and `Classifier` default to
/// one thread per call (so concurrent calls each get a core) and take this value when a single
/// caller wants all of them:
///
/// ```swift
/// let detector = try Detector(cfg: cfgURL, weights: weightsURL, names: namesURL,
///                             threads: AvailableCores.count)
/// ```
///
/// On Linux: the CPUs of `sched_getaffinity`, and the smallest quota (rounded up to whole CPUs)
/// of the process's cgroup and its ancestors, cgroup v2 (`cpu.max`) or v1 (`cpu.cfs_quota_us` /
/// `cpu.cfs_period_us`), found through `/proc/self/cgroup` and `/proc/self/mountinfo`.
/// Elsewhere: `ProcessInfo.activeProcessorCount`. Always at least 1. Read anew on each call
/// (a few small files).
public enum AvailableCores {
    /// The cores this process may use now (at least 1).
    public static var count: Int {
        #if os(Linux)
        let allowed = affinityCount() ?? ProcessInfo.processInfo.activeProcessorCount
        let quota = cgroupQuota(mountinfo: read("/proc/self/mountinfo") ?? "", cgroups: read("/proc/self/cgroup") ?? "",
                                read: read)
        return max(1, min(allowed, quota ?? allowed))
        #else
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
        #endif
    }

    /// The CPUs in this process's affinity mask, or nil where it cannot be read.
    package static func affinityCount() -> Int? {
        #if os(Linux)
        // Glibc's Swift module leaves out sched_getaffinity (a GNU extension): look it up. The
        // mask grows until the kernel's CPU count fits (EINVAL for a mask too small).
        typealias Call = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_getaffinity") else { return nil }
        let call = unsafeBitCast(symbol, to: Call.self)
        var words = 16  // 1,024 CPUs, glibc's cpu_set_t
        while words <= 1 << 16 {
            var mask = [UInt64](repeating: 0, count: words)
            let status = mask.withUnsafeMutableBytes { call(0, $0.count, $0.baseAddress!) }
            if status == 0 { return mask.reduce(0) { $0 + $1.nonzeroBitCount } }
            guard errno == EINVAL else { return nil }
            words *= 4
        }
        return nil
        #else
        return nil
        #endif
    }

    /// The smallest CPU quota, in whole CPUs rounded up, of the process's cgroup and its ancestors
    /// under every CPU controller mounted; nil when none sets one.
    /// - Parameters:
    ///   - mountinfo: `/proc/self/mountinfo`'s text (where `cgroup2` and the v1 `cpu` controller are
    ///     mounted, and which cgroup each mount's root is).
    ///   - cgroups: `/proc/self/cgroup`'s text (`0::/path` for v2, `N:cpu,cpuacct:/path` for v1).
    ///   - read: a file's text by path, nil if it cannot be read.
    package static func cgroupQuota(mountinfo: String, cgroups: String, read: (String) -> String?) -> Int? {
        var v2Path: String?, v1Path: String?
        for line in cgroups.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[0] == "0", fields[1].isEmpty { v2Path = String(fields[2]) }
            if fields[1].split(separator: ",").contains("cpu") { v1Path = String(fields[2]) }
        }
        var quotas: [Int] = []
        for line in mountinfo.split(separator: "\n") {
            // ID PARENT MAJOR:MINOR ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS
            let parts = line.components(separatedBy: " - ")
            guard parts.count == 2 else { continue }
            let mount = parts[0].split(separator: " "), tail = parts[1].split(separator: " ")
            guard mount.count >= 5, tail.count >= 3 else { continue }
            let root = unescape(mount[3]), point = unescape(mount[4])
            if tail[0] == "cgroup2", let v2Path {
                quotas += walk(point, root: root, path: v2Path) { directory in
                    read(directory + "/cpu.max").flatMap(Self.quota(cpuMax:))
                }
            } else if tail[0] == "cgroup", tail[2].split(separator: ",").contains("cpu"), let v1Path {
                quotas += walk(point, root: root, path: v1Path) { directory in
                    guard let quota = read(directory + "/cpu.cfs_quota_us"),
                          let period = read(directory + "/cpu.cfs_period_us") else { return nil }
                    return Self.quota(cfsQuota: quota, period: period)
                }
            }
        }
        return quotas.min()
    }

    /// `cpu.max` (`max 100000`, `150000 100000`) in whole CPUs rounded up; nil for no limit.
    package static func quota(cpuMax: String) -> Int? {
        let fields = cpuMax.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 1, let quota = Int(fields[0]) else { return nil }  // "max"
        return wholeCPUs(quota: quota, period: fields.count >= 2 ? Int(fields[1]) : 100_000)
    }

    /// cgroup v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us` in whole CPUs rounded up; nil for
    /// no limit (a quota of -1).
    package static func quota(cfsQuota: String, period: String) -> Int? {
        guard let quota = Int(cfsQuota.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return wholeCPUs(quota: quota, period: Int(period.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    private static func wholeCPUs(quota: Int, period: Int?) -> Int? {
        guard quota > 0, let period, period > 0 else { return nil }
        return max(1, (quota + period - 1) / period)
    }

    /// The quotas `limit` finds in the process's cgroup directory under the mount at `point`
    /// (whose root is the cgroup `root`) and in each parent up to the mount point.
    private static func walk(_ point: String, root: String, path: String, limit: (String) -> Int?) -> [Int] {
        // A cgroup outside the mount's root (another namespace's view) is read at the mount point.
        var relative = path
        if root != "/" {
            guard path == root || path.hasPrefix(root + "/") else { return limit(point).map { [$0] } ?? [] }
            relative = String(path.dropFirst(root.count))
        }
        var components = relative.split(separator: "/").map(String.init).filter { $0 != "." && $0 != ".." }
        var found: [Int] = []
        while true {
            let directory = ([point] + components).joined(separator: "/").replacingOccurrences(of: "//", with: "/")
            if let quota = limit(directory) { found.append(quota) }
            if components.isEmpty { return found }
            components.removeLast()
        }
    }

    /// mountinfo escapes space, tab, newline and backslash as octal (`\040`).
    private static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        let utf8 = Array(field.utf8)
        var bytes: [UInt8] = [], i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "\\"), i + 4 <= utf8.count,
               let value = UInt8(String(decoding: utf8[(i + 1)..<(i + 4)], as: UTF8.self), radix: 8) {
                bytes.append(value)
                i += 4
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func read(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
