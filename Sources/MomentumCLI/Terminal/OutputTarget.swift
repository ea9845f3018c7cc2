import Foundation
import MomentumAudio
import MomentumCore
import MomentumServices

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `-o PATH` writes, decided as Unix tools decide it (issue 38), for every command that
/// writes a file (`export`, `chart`, `render`, `morse render`):
///
/// - `-` is standard output, bytes as they are (a WAV or ZIP too);
/// - a new path, or a regular file (also through a symlink, which stays and whose target is
///   written), is written beside its final place and renamed when complete, so a partial file
///   never remains and an earlier file is replaced in one step;
/// - anything else that exists — a device (`/dev/null`, `/dev/full`), a FIFO, `/dev/fd/N` of a
///   process substitution — is written in place and never replaced.
///
/// Writers that need to seek (a ZIP archive, a WAV header) write a file first; for standard
/// output and special files that file is made in a temporary folder and then copied out.
enum OutputTarget: Equatable {
    case standardOutput
    case file(URL)
    case inPlace(URL)

    /// The target of `path` as given on the command line.
    init(_ path: String) {
        if path == "-" {
            self = .standardOutput
            return
        }
        var info = stat()
        if stat(path, &info) == 0 {
            // It exists (through any links): a regular file is replaced; anything else written.
            if info.st_mode & S_IFMT == S_IFREG {
                self = .file(URL(fileURLWithPath: Self.finalPath(of: path)).standardizedFileURL)
            } else {
                self = .inPlace(URL(fileURLWithPath: path))
            }
            return
        }
        // A new file — or a symlink whose target does not exist yet: that target is made.
        self = .file(URL(fileURLWithPath: Self.finalPath(of: path)).standardizedFileURL)
    }

    /// `path` with each symlink along it followed to its target (at most 40, as the kernel does).
    static func finalPath(of path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current =
                target.hasPrefix("/")
                ? target : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(target).path
        }
        return current
    }

    /// What the person named: shown in messages.
    var shownPath: String {
        switch self {
        case .standardOutput: "-"
        case .file(let url), .inPlace(let url): url.path
        }
    }

    /// Has `make` write the output to the URL it is given (a regular file's final place, or a
    /// temporary file), then puts it where it belongs. A failure to write is one sentence:
    /// "Cannot write PATH: reason".
    func write<T>(to context: CommandContext, catalog: StringCatalog, _ make: (URL) async throws -> T) async throws -> T
    {
        guard case .file(let url) = self else {
            return try await writeThroughTemporaryFile(to: context, catalog: catalog, make)
        }
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CommandFailure(catalog.format(.errorAudioFolderMissing, ["path": folder]), status: .ioError)
        }
        do {
            return try await make(url)
        } catch {
            throw Self.writeFailure(error, path: url.path, catalog: catalog) ?? error
        }
    }

    /// Where "Wrote …" goes: standard error when standard output carries the file itself.
    /// Where it was written, as a confirmation says it: the path, or "standard output".
    func name(_ catalog: StringCatalog) -> String {
        self == .standardOutput ? catalog[.outputStandardOutput] : shownPath
    }

    func confirmations(_ context: CommandContext) -> any TextOutput {
        self == .standardOutput ? context.errors : context.output
    }

    private func writeThroughTemporaryFile<T>(
        to context: CommandContext, catalog: StringCatalog, _ make: (URL) async throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("momentum-output-\(UUID().uuidString.lowercased())")
        // try?: removing our own folder in the system's temporary directory is cleanup after the
        // output was copied or refused; one left behind is the system's to clear.
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw cannotWrite(ErrorMessages.fileReason(for: error, catalog: catalog), catalog: catalog)
        }
        let temporary = folder.appendingPathComponent("output")
        let made: T
        do {
            made = try await make(temporary)
        } catch {
            throw Self.writeFailure(error, path: shownPath, catalog: catalog) ?? error
        }
        guard let input = FileHandle(forReadingAtPath: temporary.path) else {
            throw cannotWrite(catalog[.errorFileReasonOther], catalog: catalog)
        }
        defer { try? input.close() }  // try?: a file opened only for reading loses nothing on close
        let destination: Int32
        switch self {
        case .standardOutput: destination = -1
        case .file(let url), .inPlace(let url):
            // No O_CREAT, no O_TRUNC: what is there is written to, never made or replaced.
            destination = open(url.path, O_WRONLY | O_CLOEXEC)
            guard destination >= 0 else {
                throw cannotWrite(ErrorMessages.fileReason(for: POSIXError.current, catalog: catalog), catalog: catalog)
            }
        }
        defer { if destination >= 0 { close(destination) } }
        while true {
            let chunk = input.readData(ofLength: 256 * 1024)
            guard !chunk.isEmpty else { break }
            do {
                if destination < 0 {
                    try context.output.write(bytes: chunk)
                } else {
                    try FileDescriptorOutput(descriptor: destination).write(bytes: chunk)
                }
            } catch {
                throw cannotWrite(ErrorMessages.fileReason(for: error, catalog: catalog), catalog: catalog)
            }
        }
        return made
    }

    private func cannotWrite(_ reason: String, catalog: StringCatalog) -> CommandFailure {
        CommandFailure(
            catalog.format(.errorExportCannotWrite, ["path": shownPath, "reason": reason]), status: .ioError)
    }

    /// A writer's failure to write, as the one sentence (naming `path`, not a temporary file);
    /// `nil` for failures that are not about writing (a render too long, say).
    static func writeFailure(_ error: any Error, path: String, catalog: StringCatalog) -> CommandFailure? {
        let reason: String
        switch error {
        case let error as AudioFileError:
            switch error {
            case .folderMissing: reason = catalog[.errorFileReasonMissing]
            case .cannotCreate(_, let problem), .writeFailed(_, let problem): reason = problem.text(catalog)
            case .diskFull: reason = catalog[.errorFileReasonDiskFull]
            case .tooLongForWAV: return nil
            }
        case BackupFailure.backup(.cannotWrite(_, let problem)): reason = problem.text(catalog)
        case let error as CocoaError: reason = ErrorMessages.fileReason(for: error, catalog: catalog)
        case let error as POSIXError: reason = ErrorMessages.fileReason(for: error, catalog: catalog)
        default: return nil
        }
        return CommandFailure(
            catalog.format(.errorExportCannotWrite, ["path": path, "reason": reason]), status: .ioError)
    }
}
