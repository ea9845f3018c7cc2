/// A session's WAV file as bytes from any offset, made when asked for: the 44-byte header, then
/// the 16-bit samples of ``TimelineBlocks`` from the frame the offset falls in.
///
/// For serving byte ranges of a session that is never written out: memory stays at one block,
/// whatever the session's length and wherever the range starts (in the header, inside a sample).
///
/// ```swift
/// var file = try WAVRangeReader(blocks: blocks)
/// let bytes = file.bytes(1_000_000..<1_065_536)   // file.byteCount bytes in all
/// ```
public struct WAVRangeReader: Sendable {
    /// Every byte of the file, header included: what a `Content-Length` says.
    public let byteCount: Int
    private let header: [UInt8]
    private var reader: TimelineReader
    private var block: [Float] = []
    private var pcm: [Int16] = []

    /// Throws ``AudioFileError/tooLongForWAV`` when the session is longer than a WAV file holds.
    public init(blocks: TimelineBlocks) throws(AudioFileError) {
        let dataBytes = blocks.frameCount * blocks.format.channels * 2
        guard dataBytes <= WAVFile.maximumDataBytes else { throw .tooLongForWAV }
        header = WAVFile.header(format: blocks.format, dataBytes: dataBytes)
        byteCount = header.count + dataBytes
        reader = TimelineReader(blocks: blocks)
    }

    /// The bytes of `range`, clamped to the file; ask for a chunk at a time (memory holds the range).
    public mutating func bytes(_ range: Range<Int>) -> [UInt8] {
        let range = range.clamped(to: 0..<byteCount)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        if range.lowerBound < header.count {
            bytes += header[range.lowerBound..<min(range.upperBound, header.count)]
        }
        let dataStart = max(range.lowerBound, header.count) - header.count
        let dataEnd = range.upperBound - header.count
        guard dataEnd > dataStart else { return bytes }
        let frameBytes = 2 * reader.format.channels
        let firstFrame = dataStart / frameBytes
        let frames = (dataEnd + frameBytes - 1) / frameBytes - firstFrame
        let samples = frames * reader.format.channels
        if block.count < samples {
            block = [Float](repeating: 0, count: samples)
            pcm = [Int16](repeating: 0, count: samples)
        }
        reader.seek(to: firstFrame)
        let made = block.withUnsafeMutableBufferPointer {
            reader.render(into: UnsafeMutableBufferPointer(rebasing: $0[0..<samples]))
        }
        let count = made * reader.format.channels
        block.withUnsafeBufferPointer { floats in
            pcm.withUnsafeMutableBufferPointer { WAVFile.convert(floats, count: count, into: $0) }
        }
        let skip = dataStart - firstFrame * frameBytes
        pcm.withUnsafeBytes { raw in bytes += raw[skip..<skip + (dataEnd - dataStart)] }
        return bytes
    }
}
