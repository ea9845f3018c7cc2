import Foundation

/// 16-bit PCM WAV files: the format every system player reads.
public enum WAVFile {
    public static let sampleRates = 8_000...48_000

    /// A complete WAV file of `samples` (interleaved when `channels` is 2), clamped to ±1.
    public static func encode(samples: [Float], sampleRate: Int, channels: Int = 1) throws(WAVError) -> Data {
        guard sampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        guard channels == 1 || channels == 2 else { throw .unsupportedChannelCount(channels) }
        guard samples.count % channels == 0 else { throw .incompleteFrame }
        let dataBytes = samples.count * 2
        var data = Data(capacity: 44 + dataBytes)
        func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append("RIFF")
        append32(UInt32(36 + dataBytes))
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(1)  // PCM
        append16(UInt16(channels))
        append32(UInt32(sampleRate))
        append32(UInt32(sampleRate * channels * 2))
        append16(UInt16(channels * 2))
        append16(16)
        append("data")
        append32(UInt32(dataBytes))
        var pcm = [Int16](repeating: 0, count: samples.count)
        for (index, sample) in samples.enumerated() {
            let clamped = max(-1, min(1, sample.isFinite ? sample : 0))
            pcm[index] = Int16((clamped * 32767).rounded())
        }
        pcm.withUnsafeBufferPointer { buffer in
            for value in buffer { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        }
        return data
    }
}

/// Why samples cannot be written as WAV.
public enum WAVError: Error, Equatable, Sendable {
    case unsupportedSampleRate(Int)
    case unsupportedChannelCount(Int)
    case incompleteFrame
}
