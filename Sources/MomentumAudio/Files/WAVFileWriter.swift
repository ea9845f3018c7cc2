import Foundation
import MomentumCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streams an ``AudioSource`` into a WAV file in fixed-size blocks.
///
/// The file is written beside its destination under a hidden `.partial` name and renamed only when
/// complete, so a player never sees half a file; on any failure (a full disk, say) the partial
/// file is removed and the error says what happened.
///
/// ```swift
/// try WAVFileWriter.render(&renderer, to: URL(fileURLWithPath: "sit.wav")) { done, total in … }
/// ```
public enum WAVFileWriter {
    /// Frames per block: about 0.1 s at 44.1 kHz; large enough that writes are cheap.
    public static let blockFrames = 4096

    /// Renders `source` to `url`, calling `progress` with frames done and frames in all after
    /// each block. `openFile` opens the partial file (tests pass one that fails on purpose).
    public static func render(
        _ source: inout some AudioSource,
        to url: URL,
        openFile: (String) throws(AudioFileError) -> any WritableFile = POSIXFile.create,
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws(AudioFileError) {
        let format = source.format
        let dataBytes = source.frameCount * format.channels * 2
        guard dataBytes <= WAVFile.maximumDataBytes else { throw .tooLongForWAV }
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .folderMissing(folder)
        }
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial").path
        var file = try openFile(partial)
        do throws(AudioFileError) {
            try write(&source, to: &file, progress: progress)
            try file.close()
            guard rename(partial, url.path) == 0 else {
                throw AudioFileError.writeFailed(url.path, FileProblem(errno: errno))
            }
        } catch {
            // try?: the write already failed and that error is thrown; the partial file is removed.
            try? file.close()
            unlink(partial)
            throw error
        }
    }

    private static func write(
        _ source: inout some AudioSource, to file: inout any WritableFile, progress: (Int, Int) -> Void
    ) throws(AudioFileError) {
        if let stretches = source as? any StretchableAudioSource,
            try writeInStretches(stretches, to: &file, progress: progress)
        {
            return
        }
        let format = source.format
        try file.write(WAVFile.header(format: format, dataBytes: source.frameCount * format.channels * 2), at: 0)
        var block = [Float](repeating: 0, count: blockFrames * format.channels)
        var pcm = [Int16](repeating: 0, count: block.count)
        var framesDone = 0
        while true {
            let frames = block.withUnsafeMutableBufferPointer { source.render(into: $0) }
            guard frames > 0 else { break }
            let count = frames * format.channels
            block.withUnsafeBufferPointer { samples in
                pcm.withUnsafeMutableBufferPointer { WAVFile.convert(samples, count: count, into: $0) }
            }
            try file.write(pcm, count: count)
            framesDone += frames
            progress(framesDone, source.frameCount)
        }
        // A source that ended early still leaves a valid file: the header says what was written.
        if framesDone != source.frameCount {
            try file.write(WAVFile.header(format: format, dataBytes: framesDone * format.channels * 2), at: 0)
        }
    }
}

extension WAVFileWriter {
    /// The most stretches a source is rendered in at once.
    static let mostStretches = 4

    /// Renders `source` in as many stretches as there are processors (at most
    /// ``mostStretches``), each on a thread of its own from a copy that starts at the stretch, and
    /// writes each block where it belongs in the file; `false` (nothing written) when the source
    /// is too short to be worth it or there is one processor. The samples are the same as
    /// rendered in one go: a stretch starts where the source says starting costs nothing more
    /// than a seek, and its copy renders the same samples from there.
    private static func writeInStretches(
        _ source: some StretchableAudioSource, to file: inout any WritableFile, progress: (Int, Int) -> Void
    ) throws(AudioFileError) -> Bool {
        let format = source.format
        let total = source.frameCount
        let unit = max(1, source.stretchUnit)
        let units = (total + unit - 1) / unit
        let count = min(ProcessInfo.processInfo.activeProcessorCount, mostStretches, units / 8)
        guard count > 1 else { return false }
        let bounds = (0...count).map { min(total, units * $0 / count * unit) }
        try file.write(WAVFile.header(format: format, dataBytes: total * format.channels * 2), at: 0)
        let frameBytes = format.channels * 2
        let header = WAVFile.header(format: format, dataBytes: 0).count
        let (written, failure) = withoutActuallyEscaping(progress) { progress in
            let shared = SharedFile(file, total: total, progress: progress)
            DispatchQueue.concurrentPerform(iterations: count) { part in
                var stretch = source.reading(from: bounds[part])
                var block = [Float](repeating: 0, count: stretchBlockFrames * format.channels)
                var pcm = [Int16](repeating: 0, count: block.count)
                var frame = bounds[part]
                while frame < bounds[part + 1], !shared.hasFailed {
                    let wanted = min(stretchBlockFrames, bounds[part + 1] - frame) * format.channels
                    let frames = block.withUnsafeMutableBufferPointer {
                        stretch.render(into: UnsafeMutableBufferPointer(rebasing: $0[0..<wanted]))
                    }
                    guard frames > 0 else { break }
                    block.withUnsafeBufferPointer { samples in
                        pcm.withUnsafeMutableBufferPointer {
                            WAVFile.convert(samples, count: frames * format.channels, into: $0)
                        }
                    }
                    shared.write(pcm, count: frames * format.channels, at: header + frame * frameBytes, frames: frames)
                    frame += frames
                }
            }
            return (shared.file, shared.failure)
        }
        file = written
        if let failure { throw failure }
        return true
    }

    /// Frames each stretch renders and writes at a time: about 0.4 s at 44.1 kHz, so a write
    /// call carries 32 KB (mono), the stretches seldom wait for each other's writes, and each
    /// holds 96 KB of buffers besides its source's.
    static let stretchBlockFrames = 16_384
}

/// The file the stretches write into, one write at a time, and the progress of them all.
private final class SharedFile: @unchecked Sendable {
    // Everything mutable is only touched while `lock` is held; `progress` is called with it held,
    // so it is never called twice at once.
    private let lock = NSLock()
    private(set) var file: any WritableFile
    private(set) var failure: AudioFileError?
    private var done = 0
    private let total: Int
    private let progress: (Int, Int) -> Void

    init(_ file: any WritableFile, total: Int, progress: @escaping (Int, Int) -> Void) {
        self.file = file
        self.total = total
        self.progress = progress
    }

    var hasFailed: Bool { lock.withLock { failure != nil } }

    func write(_ samples: [Int16], count: Int, at offset: Int, frames: Int) {
        lock.withLock {
            guard failure == nil else { return }
            do throws(AudioFileError) {
                try file.write(samples, count: count, at: offset)
                done += frames
                progress(done, total)
            } catch {
                failure = error
            }
        }
    }
}

/// A source whose frames can be rendered in stretches at once, each from a copy of its own.
public protocol StretchableAudioSource: AudioSource, Sendable {
    /// Stretches start at multiples of this many frames: where starting costs no more than a seek.
    var stretchUnit: Int { get }
    /// A copy that renders from `frame` on, giving the same samples as this source does there.
    func reading(from frame: Int) -> Self
}

/// A file being written: what ``WAVFileWriter`` needs of it.
public protocol WritableFile {
    /// Appends the first `count` samples of `samples` (already little-endian).
    mutating func write(_ samples: [Int16], count: Int) throws(AudioFileError)
    /// Writes the first `count` samples of `samples` at byte `offset` from the start.
    mutating func write(_ samples: [Int16], count: Int, at offset: Int) throws(AudioFileError)
    /// Writes `bytes` at `offset` from the start (the header).
    mutating func write(_ bytes: [UInt8], at offset: Int) throws(AudioFileError)
    mutating func close() throws(AudioFileError)
}

/// A file written with POSIX calls, so a full disk reports itself as such.
public struct POSIXFile: WritableFile {
    let path: String
    private var descriptor: Int32
    private var end = 0

    public static func create(_ path: String) throws(AudioFileError) -> any WritableFile {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw .cannotCreate(path, FileProblem(errno: errno)) }
        return POSIXFile(path: path, descriptor: descriptor)
    }

    public mutating func write(_ samples: [Int16], count: Int) throws(AudioFileError) {
        try write(samples, count: count, at: end)
    }

    public mutating func write(_ samples: [Int16], count: Int, at offset: Int) throws(AudioFileError) {
        let failed = samples.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            let length = min(count * 2, buffer.count)
            var done = 0
            while done < length {
                let written = pwrite(descriptor, base + done, length - done, off_t(offset + done))
                guard written > 0 else { return true }
                done += written
            }
            return false
        }
        if failed { throw Self.failure(path: path) }
        end = max(end, offset + count * 2)
    }

    public mutating func write(_ bytes: [UInt8], at offset: Int) throws(AudioFileError) {
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == bytes.count else { throw Self.failure(path: path) }
        end = max(end, offset + bytes.count)
    }

    public mutating func close() throws(AudioFileError) {
        guard descriptor >= 0 else { return }
        let result = posixClose(descriptor)
        descriptor = -1
        guard result == 0 else { throw Self.failure(path: path) }
    }

    private static func failure(path: String) -> AudioFileError {
        errno == ENOSPC || errno == EDQUOT ? .diskFull(path) : .writeFailed(path, FileProblem(errno: errno))
    }
}

/// Why an audio file could not be written. Every case leaves no partial file behind.
public enum AudioFileError: Error, Equatable, Sendable {
    /// The folder the file should go into does not exist.
    case folderMissing(String)
    case cannotCreate(String, FileProblem)
    case diskFull(String)
    case writeFailed(String, FileProblem)
    /// Longer than the 4 GB a WAV file can address.
    case tooLongForWAV
}

// At file scope, so the name does not collide with `POSIXFile`'s own method.
private func posixClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
