import Foundation
import NIOCore
import NIOPosix

/// The event loops the server listens on: one for each core the process may run on.
///
/// NIO's own count (`System.coreCount`) sees the machine's cores and cgroup limits, not the
/// process's CPU affinity — what `taskset` and systemd's `CPUAffinity=` set. A server confined to
/// one core then ran two event-loop threads taking turns on it, each turn a context switch.
enum ServerEventLoops {
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: threadCount)

    static var threadCount: Int {
        let cores = System.coreCount
        // try?: without a readable /proc/self/status (macOS has none) NIO's own count is used.
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let allowed = cpuCount(inStatus: status)
        else { return cores }
        return max(1, min(cores, allowed))
    }

    /// The CPUs of `Cpus_allowed_list:` in `/proc/self/status` ("0-3,6" is five); nil without one.
    static func cpuCount(inStatus status: String) -> Int? {
        guard
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
            let list = line.split(separator: ":", maxSplits: 1).last
        else { return nil }
        var count = 0
        for part in list.split(separator: ",") {
            let bounds = part.trimmingCharacters(in: .whitespaces).split(separator: "-").compactMap { Int($0) }
            switch bounds.count {
            case 1: count += 1
            case 2 where bounds[1] >= bounds[0]: count += bounds[1] - bounds[0] + 1
            default: return nil
            }
        }
        return count > 0 ? count : nil
    }
}
