import Darknet
import Foundation
import TestSupport
import XCTest

/// `AvailableCores`: the cgroup quota files as the kernel writes them (v2 and v1, nested
/// cgroups, a container's namespaced view, a hybrid host), the affinity mask against `nproc`
/// and `taskset`, and the command line's `--threads` default that follows it.
final class AvailableCoresTests: XCTestCase {
    func testQuotaFilesInWholeCPUsRoundedUp() {
        XCTAssertNil(AvailableCores.quota(cpuMax: "max 100000\n"))
        XCTAssertEqual(AvailableCores.quota(cpuMax: "200000 100000\n"), 2)
        XCTAssertEqual(AvailableCores.quota(cpuMax: "150000 100000\n"), 2, "1.5 CPUs: a second thread still helps")
        XCTAssertEqual(AvailableCores.quota(cpuMax: "50000 100000\n"), 1)
        XCTAssertEqual(AvailableCores.quota(cpuMax: "400000 50000"), 8)
        XCTAssertNil(AvailableCores.quota(cpuMax: ""))
        XCTAssertNil(AvailableCores.quota(cfsQuota: "-1\n", period: "100000\n"))
        XCTAssertEqual(AvailableCores.quota(cfsQuota: "300000\n", period: "100000\n"), 3)
        XCTAssertEqual(AvailableCores.quota(cfsQuota: "250000\n", period: "100000\n"), 3)
        XCTAssertNil(AvailableCores.quota(cfsQuota: "100000\n", period: "0\n"))
    }

    /// A file system of `files` (path to text) for `cgroupQuota`.
    private func quota(_ mountinfo: [String], _ cgroups: String, _ files: [String: String]) -> Int? {
        AvailableCores.cgroupQuota(mountinfo: mountinfo.joined(separator: "\n"), cgroups: cgroups) { files[$0] }
    }

    private let v2Mount = "30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate"

    func testCgroupV2ContainerAndItsAncestors() {
        // docker run --cpus 2: the container's own namespace, its cgroup at the mount's root.
        XCTAssertEqual(quota([v2Mount], "0::/\n", ["/sys/fs/cgroup/cpu.max": "200000 100000\n"]), 2)
        XCTAssertNil(quota([v2Mount], "0::/\n", ["/sys/fs/cgroup/cpu.max": "max 100000\n"]))
        XCTAssertNil(quota([v2Mount], "0::/\n", [:]), "the root cgroup has no cpu.max")
        // Nested (a Kubernetes pod): the smallest quota on the way up counts.
        let nested = ["/sys/fs/cgroup/kubepods/pod1/c1/cpu.max": "max 100000",
                      "/sys/fs/cgroup/kubepods/pod1/cpu.max": "300000 100000",
                      "/sys/fs/cgroup/kubepods/cpu.max": "max 100000"]
        XCTAssertEqual(quota([v2Mount], "0::/kubepods/pod1/c1\n", nested), 3)
        var tighter = nested
        tighter["/sys/fs/cgroup/kubepods/pod1/c1/cpu.max"] = "120000 100000"
        XCTAssertEqual(quota([v2Mount], "0::/kubepods/pod1/c1\n", tighter), 2)
        // A mount whose root is the process's own cgroup (what a container sees of the host's tree).
        let namespaced = "40 30 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw"
        XCTAssertEqual(quota([namespaced], "0::/docker/abc\n", ["/sys/fs/cgroup/cpu.max": "100000 100000"]), 1)
        // A path outside the mount's root is read at the mount point.
        XCTAssertEqual(quota([namespaced], "0::/other\n", ["/sys/fs/cgroup/cpu.max": "400000 100000"]), 4)
        // No cgroup2 line: no v2 quota even if the file is there.
        XCTAssertNil(quota([v2Mount], "", ["/sys/fs/cgroup/cpu.max": "100000 100000"]))
    }

    func testCgroupV1AndAHybridHost() {
        // This kind of machine: v1 controllers (cpu alone) plus an empty v2 hierarchy at unified/.
        let mounts = ["32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
                      "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct",
                      "34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset",
                      "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw"]
        let cgroups = "4:memory:/process_api/f6c8\n3:cpuset:/\n2:cpuacct:/\n1:cpu:/\n0::/\n"
        XCTAssertNil(quota(mounts, cgroups, ["/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1\n",
                                             "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n"]))
        XCTAssertEqual(quota(mounts, cgroups, ["/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "200000\n",
                                               "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n"]), 2)
        XCTAssertNil(quota(mounts, cgroups, ["/sys/fs/cgroup/cpuacct/cpu.cfs_quota_us": "100000\n",
                                             "/sys/fs/cgroup/cpuacct/cpu.cfs_period_us": "100000\n"]),
                     "only the cpu controller's mount has the quota")
        // The usual v1 layout: cpu and cpuacct mounted together, the process in a docker cgroup.
        let joint = "35 31 0:32 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct"
        XCTAssertEqual(quota([joint], "3:cpu,cpuacct:/docker/abc\n",
                             ["/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "-1",
                              "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000",
                              "/sys/fs/cgroup/cpu,cpuacct/docker/cpu.cfs_quota_us": "150000",
                              "/sys/fs/cgroup/cpu,cpuacct/docker/cpu.cfs_period_us": "100000"]), 2)
        // mountinfo's octal escapes (a space in the mount point).
        let spaced = #"36 31 0:33 / /mnt/cg\040v2 rw - cgroup2 cgroup2 rw"#
        XCTAssertEqual(quota([spaced], "0::/\n", ["/mnt/cg v2/cpu.max": "100000 100000"]), 1)
    }

    /// The mask against coreutils' `nproc` (which reads the same affinity and, without
    /// OMP_NUM_THREADS, nothing else), and the count at most the mask and at least 1.
    func testThisProcessAgainstNproc() throws {
        let nproc = try ChildProcess.run("/usr/bin/env", ["-u", "OMP_NUM_THREADS", "-u", "OMP_THREAD_LIMIT", "nproc"], timeout: 30)
        XCTAssertEqual(nproc.status, 0, nproc.stderr)
        let allowed = try XCTUnwrap(Int(nproc.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), nproc.stdout)
        XCTAssertEqual(AvailableCores.affinityCount(), allowed)
        XCTAssertGreaterThanOrEqual(AvailableCores.count, 1)
        XCTAssertLessThanOrEqual(AvailableCores.count, allowed)
    }

    /// `swift-darknet` defaults `--threads` to the count, and `--help` shows it: all of this
    /// process's cores, and 1 when `taskset` pins it to one CPU.
    func testCommandLineDefaultFollowsTheAffinity() throws {
        let tool = try SwiftDarknetTool.require()
        for command in ["detect", "classify", "video", "forward", "map"] {
            let free = try ChildProcess.run(tool, [command, "--help"], timeout: 60)
            XCTAssertEqual(free.status, 0, free.stderr)
            XCTAssertTrue(free.stdout.contains("default: the cores this process may use (\(AvailableCores.count) here)"),
                          "\(command): \(free.stdout)")
            let pinned = try ChildProcess.run("/usr/bin/taskset", ["-c", "0", tool.path, command, "--help"], timeout: 60)
            XCTAssertEqual(pinned.status, 0, pinned.stderr)
            XCTAssertTrue(pinned.stdout.contains("default: the cores this process may use (1 here)"), "\(command): \(pinned.stdout)")
        }
        let serve = try ChildProcess.run("/usr/bin/taskset", ["-c", "0", tool.path, "serve", "--help"], timeout: 60)
        XCTAssertTrue(serve.stdout.contains("default: the cores this process may use (1 here) divided by --threads"), serve.stdout)
    }
}
