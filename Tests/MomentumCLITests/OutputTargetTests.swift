import Foundation
import MomentumTestSupport
import Testing

@testable import MomentumCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `-o` as Unix tools take it (issue 38), for every command that writes a file: standard output,
/// devices, symlinks and FIFOs written — never replaced — and regular files replaced whole.
@Suite("Every -o: standard output, devices, symlinks and FIFOs written, never replaced")
struct OutputTargetTests {
    /// Each command that writes a file, with how its file starts.
    static let commands: [(arguments: [String], starts: String)] = [
        (["export"], "{"), (["export", "--format", "archive"], "PK"), (["export", "--format", "csv"], "id,kind"),
        (["chart", "streak"], "<svg"), (["render", "meditation", "2s", "--countdown", "0"], "RIFF"),
        (["morse", "render", "CQ"], "RIFF"),
    ]

    func fileType(_ path: String, following: Bool = false) -> mode_t {
        var info = stat()
        let result = following ? stat(path, &info) : lstat(path, &info)
        return result == 0 ? info.st_mode & S_IFMT : 0
    }

    func terminal() async throws -> TestTerminal {
        let terminal = try TestTerminal()
        #expect(await terminal.run(["log", "add", "--minutes", "20"]) == 0)
        return terminal
    }

    @Test func aDashIsStandardOutputBytesAsTheyAreAndTheConfirmationGoesToStandardError() async throws {
        for (arguments, starts) in Self.commands {
            let terminal = try await terminal()
            #expect(await terminal.run(arguments + ["-o", "-"]) == 0, "\(arguments)")
            #expect(terminal.output.bytes.starts(with: Data(starts.utf8)), "\(arguments)")
            #expect(!terminal.errors.text.isEmpty, "\(arguments): no confirmation")
            #expect(!FileManager.default.fileExists(atPath: terminal.directory.url.appendingPathComponent("-").path))
        }
    }

    @Test func aDeviceIsWrittenInPlaceAndNeverReplaced() async throws {
        for (arguments, _) in Self.commands {
            let terminal = try await terminal()
            #expect(await terminal.run(arguments + ["-o", "/dev/null"]) == 0, "\(arguments)")
            #expect(fileType("/dev/null") == S_IFCHR)
        }
        #if os(Linux)
            // A device that refuses what is written: one sentence, a failure, the device as it was.
            let terminal = try await terminal()
            #expect(await terminal.run(["export", "-o", "/dev/full"]) == 74)
            #expect(terminal.errors.text.contains("Cannot write /dev/full: the disk is full"))
            #expect(fileType("/dev/full") == S_IFCHR)
        #endif
    }

    @Test func aSymlinkStaysAndItsTargetIsWrittenEvenWhenItDoesNotExistYet() async throws {
        for (arguments, starts) in Self.commands {
            let terminal = try await terminal()
            let folder = terminal.directory.url
            let target = folder.appendingPathComponent("target")
            try Data("old".utf8).write(to: target)
            let link = folder.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target")
            #expect(await terminal.run(arguments + ["-o", link.path]) == 0, "\(arguments)")
            #expect(fileType(link.path) == S_IFLNK, "\(arguments): the link was replaced")
            #expect(try Data(contentsOf: target).starts(with: Data(starts.utf8)), "\(arguments)")
            let dangling = folder.appendingPathComponent("dangling")
            try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "made")
            #expect(await terminal.run(arguments + ["-o", dangling.path]) == 0, "\(arguments)")
            #expect(fileType(dangling.path) == S_IFLNK)
            #expect(fileType(folder.appendingPathComponent("made").path) == S_IFREG)
        }
    }

    @Test func aFIFOIsWrittenInPlaceForAReaderOnItsOtherEnd() async throws {
        for (arguments, starts) in Self.commands {
            let terminal = try await terminal()
            let fifo = terminal.directory.url.appendingPathComponent("fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            // The reader on the other end, as `cat fifo` would be — on a thread of its own: its
            // blocking open and reads must not hold one of the few threads every test shares.
            let reader = FIFOReader(path: fifo)
            #expect(await terminal.run(arguments + ["-o", fifo]) == 0, "\(arguments)")
            let read = await reader.data()
            #expect(read.starts(with: Data(starts.utf8)), "\(arguments): \(read.count) bytes")
            #expect(fileType(fifo) == S_IFIFO)
        }
    }

    @Test func aRegularFileIsReplacedWholeAndNoPartialFileIsLeft() async throws {
        let terminal = try await terminal()
        let file = terminal.directory.url.appendingPathComponent("backup.json")
        try Data(repeating: 0x41, count: 100_000).write(to: file)
        #expect(await terminal.run(["export", "-o", file.path]) == 0)
        #expect(try Data(contentsOf: file).starts(with: Data("{".utf8)))
        let left = try FileManager.default.contentsOfDirectory(atPath: terminal.directory.url.path)
        #expect(!left.contains { $0.contains("partial") })
        // A folder is not a file: one sentence naming it.
        #expect(await terminal.run(["export", "-o", terminal.directory.url.path]) == 74)
        #expect(terminal.errors.text.contains("Cannot write"))
    }
}

/// Reads a FIFO to its end on a thread of its own, and hands the bytes over once done.
final class FIFOReader: @unchecked Sendable {
    // `result` and `waiter` are touched only while `lock` is held.
    private let lock = NSLock()
    private var result: Data?
    private var waiter: CheckedContinuation<Data, Never>?

    init(path: String) {
        Thread.detachNewThread { [self] in
            let data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data()
            let waiting = lock.withLock { () -> CheckedContinuation<Data, Never>? in
                result = data
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume(returning: data)
        }
    }

    func data() async -> Data {
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> Data? in
                if let result { return result }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
