import Foundation

/// 16-bit PCM WAV files: the format every system player reads.
///
/// ```swift
/// let data = try WAVFile.encode(samples: samples, format: format)
/// let audio = try WAVFile.decode(data)  // audio.samples == the 16-bit samples written
/// ```
public enum WAVFile {
    /// The 44-byte header of a 16-bit PCM file with `dataBytes` of samples.
    static func header(format: AudioFormat, dataBytes: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44)
        func append(_ text: String) { bytes += Array(text.utf8) }
        func append32(_ value: Int) {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { bytes += $0 }
        }
        func append16(_ value: Int) {
            withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { bytes += $0 }
        }
        append("RIFF")
        append32(36 + dataBytes)
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(1)  // PCM
        append16(format.channels)
        append32(format.sampleRate)
        append32(format.sampleRate * format.channels * 2)
        append16(format.channels * 2)
        append16(16)
        append("data")
        append32(dataBytes)
        return bytes
    }

    /// The most sample bytes a WAV file can hold (its sizes are 32-bit).
    public static let maximumDataBytes = Int(UInt32.max) - 36

    /// A Float sample (±1 full scale) as 16-bit PCM: clamped, rounded to the nearest (ties to
    /// even); not-a-number becomes silence.
    ///
    /// Adding 1.5 × 2²³ puts the rounded integer into the low bits of the Float — branch-free and
    /// several times faster than `rounded()`, which matters in the hot loop of every render.
    @inline(__always)
    static func pcm(_ sample: Float) -> Int16 {
        let clamped = sample.isNaN ? 0 : (sample < -1 ? -1 : (sample > 1 ? 1 : sample))
        let shifted = clamped * 32767 + 12_582_912
        return Int16(truncatingIfNeeded: Int32(bitPattern: shifted.bitPattern &- 0x4B40_0000))
    }

    /// Converts `count` samples to little-endian 16-bit PCM with ``pcm(_:)``.
    static func convert(
        _ samples: UnsafeBufferPointer<Float>, count: Int, into output: UnsafeMutableBufferPointer<Int16>
    ) {
        for index in 0..<count { output[index] = pcm(samples[index]).littleEndian }
    }

    /// A complete WAV file of `samples` (interleaved when stereo).
    public static func encode(samples: [Float], format: AudioFormat) throws(WAVError) -> Data {
        guard samples.count % format.channels == 0 else { throw .incompleteFrame }
        guard samples.count * 2 <= maximumDataBytes else { throw .tooLong }
        var data = Data(header(format: format, dataBytes: samples.count * 2))
        var pcm = [Int16](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { input in
            pcm.withUnsafeMutableBufferPointer { convert(input, count: samples.count, into: $0) }
        }
        pcm.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }

    /// The samples and format of a 16-bit PCM WAV file. Chunks other than `fmt ` and `data`
    /// (LIST, fact, …) are skipped; anything else is refused with a specific error.
    public static func decode(_ data: Data) throws(WAVError) -> WAVAudio {
        let bytes = [UInt8](data)
        func text(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        func uint32(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        func uint16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, text(0) == "RIFF", text(8) == "WAVE" else { throw .notWAV }
        var format: AudioFormat?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = text(offset)
            let size = uint32(offset + 4)
            let body = offset + 8
            guard size <= bytes.count - body else { throw .truncated }
            switch id {
            case "fmt ":
                guard size >= 16 else { throw .truncated }
                guard uint16(body) == 1, uint16(body + 14) == 16 else { throw .notSixteenBitPCM }
                do {
                    format = try AudioFormat(sampleRate: uint32(body + 4), channels: uint16(body + 2))
                } catch {
                    throw .unsupportedFormat(sampleRate: uint32(body + 4), channels: uint16(body + 2))
                }
            case "data":
                guard let format else { throw .missingFormat }
                guard size % (2 * format.channels) == 0 else { throw .incompleteFrame }
                var samples = [Int16](repeating: 0, count: size / 2)
                for index in samples.indices {
                    samples[index] = Int16(bitPattern: UInt16(uint16(body + 2 * index)))
                }
                return WAVAudio(format: format, samples: samples)
            default: break
            }
            // Chunks are padded to an even length.
            offset = body + size + (size & 1)
        }
        throw format == nil ? .missingFormat : .missingData
    }
}

/// The contents of a WAV file: its format and its 16-bit samples, interleaved when stereo.
public struct WAVAudio: Sendable, Equatable {
    public var format: AudioFormat
    public var samples: [Int16]

    public var frameCount: Int { samples.count / format.channels }
    public var duration: Duration { .seconds(Double(frameCount) / Double(format.sampleRate)) }
}

/// Why samples cannot be written as WAV, or a file cannot be read as one.
public enum WAVError: Error, Equatable, Sendable {
    case notWAV
    case truncated
    case notSixteenBitPCM
    case unsupportedFormat(sampleRate: Int, channels: Int)
    case missingFormat
    case missingData
    case incompleteFrame
    /// More than the 4 GB a WAV file can address.
    case tooLong
}
