import CommandLineKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--contend`: another process keeping one CPU busy for the whole measurement, as on a shared
/// machine or a container with a noisy neighbour. The busy process is this executable run with
/// `--busy-loop CPU`: pinned to that CPU, it does register arithmetic until it is stopped (or
/// until its parent is gone), so its CPU time is not counted in the measured process's.
final class Contention {
    /// The CPU the busy loop is pinned to.
    let cpu: Int
    private let process: Process

    /// Starts the busy loop on the last CPU this process may run on.
    init() throws {
        let cpus = allowedCPUs()
        guard let last = cpus.last, cpus.count > 1 else {
            throw CLIError("--contend needs at least two CPUs, this process may run on \(cpus.count)")
        }
        cpu = last
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--busy-loop", String(last)]
        do { try process.run() } catch { throw CLIError("--contend: cannot start the busy loop: \(error)") }
    }

    /// Stops the busy loop and waits for it to exit.
    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// The report line.
    var description: String { "contended: a busy loop pinned to CPU \(cpu) (pid \(process.processIdentifier))" }
}

/// `sched_getaffinity` / `sched_setaffinity`, looked up at run time: Glibc's Swift module leaves
/// out these GNU extensions.
private typealias AffinityCall = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

private func affinityCall(_ name: String) -> AffinityCall? {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }  // RTLD_DEFAULT
    return unsafeBitCast(symbol, to: AffinityCall.self)
}

/// A CPU mask as the kernel reads it (1024 CPUs, as glibc's `cpu_set_t`).
private typealias CPUMask = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                             UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

/// The CPUs this process may run on, ascending.
func allowedCPUs() -> [Int] {
    var set: CPUMask = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    guard let call = affinityCall("sched_getaffinity"),
          withUnsafeMutableBytes(of: &set, { call(0, $0.count, $0.baseAddress!) }) == 0 else { return [] }
    return withUnsafeBytes(of: &set) { bytes in
        (0..<bytes.count * 8).filter { bytes[$0 / 8] & (1 << ($0 % 8)) != 0 }
    }
}

/// `--busy-loop CPU` (the child of `--contend`): pins this process to `cpu` and runs
/// multiply-add chains on registers until it is killed or its parent exits. Never returns.
func runBusyLoop(cpu: Int) -> Never {
    var set: CPUMask = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &set) { bytes in bytes[cpu / 8] |= UInt8(1 << (cpu % 8)) }
    guard let call = affinityCall("sched_setaffinity"),
          withUnsafeMutableBytes(of: &set, { call(0, $0.count, $0.baseAddress!) }) == 0 else {
        fail("--busy-loop: cannot pin to CPU \(cpu)")
    }
    let parent = getppid()
    var a: UInt64 = 1, b: UInt64 = 2, c: UInt64 = 3, d: UInt64 = 4
    while true {
        for _ in 0..<(1 << 24) {
            a = a &* 6_364_136_223_846_793_005 &+ 1
            b = b &* 2_862_933_555_777_941_757 &+ 3
            c = c &* 3_202_034_522_624_059_733 &+ 5
            d = d &* 1_442_695_040_888_963_407 &+ 7
        }
        if getppid() != parent { exit(a ^ b ^ c ^ d == 0 ? 1 : 0) }  // the parent is gone
    }
}
