import Foundation

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
                throw AudioFileError.writeFailed(url.path, String(cString: strerror(errno)))
            }
        } catch {
            try? file.close()
            unlink(partial)
            throw error
        }
    }

    private static func write(
        _ source: inout some AudioSource, to file: inout any WritableFile, progress: (Int, Int) -> Void
    ) throws(AudioFileError) {
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

/// A file being written: what ``WAVFileWriter`` needs of it.
public protocol WritableFile {
    /// Appends the first `count` samples of `samples` (already little-endian).
    mutating func write(_ samples: [Int16], count: Int) throws(AudioFileError)
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
        guard descriptor >= 0 else { throw .cannotCreate(path, String(cString: strerror(errno))) }
        return POSIXFile(path: path, descriptor: descriptor)
    }

    public mutating func write(_ samples: [Int16], count: Int) throws(AudioFileError) {
        let failed = samples.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            let length = min(count * 2, buffer.count)
            var done = 0
            while done < length {
                let written = pwrite(descriptor, base + done, length - done, off_t(end + done))
                guard written > 0 else { return true }
                done += written
            }
            return false
        }
        if failed { throw Self.failure(path: path) }
        end += count * 2
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
        errno == ENOSPC || errno == EDQUOT ? .diskFull(path) : .writeFailed(path, String(cString: strerror(errno)))
    }
}

/// Why an audio file could not be written. Every case leaves no partial file behind.
public enum AudioFileError: Error, Equatable, Sendable {
    /// The folder the file should go into does not exist.
    case folderMissing(String)
    case cannotCreate(String, String)
    case diskFull(String)
    case writeFailed(String, String)
    /// Longer than the 4 GB a WAV file can address.
    case tooLongForWAV
}

// At file scope, so the name does not collide with `POSIXFile`'s own method.
private func posixClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
