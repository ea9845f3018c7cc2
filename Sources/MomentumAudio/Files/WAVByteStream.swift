/// A WAV file as byte chunks made only when asked for: the header, then the samples block by block.
///
/// For sending a render as it is made: nothing waits for the whole file, memory stays at one
/// block, and whoever sends can stop between two chunks (when the listener has gone, say).
///
/// ```swift
/// var stream = try WAVByteStream(source: renderer)
/// while let chunk = stream.next() { try send(chunk) }  // stream.byteCount bytes in all
/// ```
public struct WAVByteStream<Source: AudioSource> {
    public private(set) var source: Source
    /// Every byte of the file, header included: what a `Content-Length` says.
    public let byteCount: Int
    /// The bytes handed out so far.
    public private(set) var bytesDone = 0
    private let dataBytes: Int
    private var block: [Float]
    private var pcm: [Int16]

    /// Throws ``AudioFileError/tooLongForWAV`` when the source is longer than a WAV file holds.
    public init(source: Source, blockFrames: Int = WAVFileWriter.blockFrames) throws(AudioFileError) {
        let format = source.format
        let dataBytes = source.frameCount * format.channels * 2
        guard dataBytes <= WAVFile.maximumDataBytes else { throw .tooLongForWAV }
        self.source = source
        self.dataBytes = dataBytes
        byteCount = WAVFile.header(format: format, dataBytes: dataBytes).count + dataBytes
        block = [Float](repeating: 0, count: max(1, blockFrames) * format.channels)
        pcm = [Int16](repeating: 0, count: block.count)
    }

    /// Whether every byte has been handed out.
    public var isFinished: Bool { bytesDone == byteCount }

    /// The next chunk, up to `blocks` blocks of samples (the first also holds the header); `nil`
    /// once every byte is out.
    ///
    /// A source that ends early is padded with silence, so the file is as long as its header and
    /// ``byteCount`` said.
    public mutating func next(blocks: Int = 1) -> [UInt8]? {
        guard !isFinished else { return nil }
        let format = source.format
        var bytes: [UInt8] = []
        if bytesDone == 0 {
            bytes = WAVFile.header(format: format, dataBytes: dataBytes)
        }
        for _ in 0..<max(1, blocks) {
            let left = byteCount - bytesDone - bytes.count
            guard left > 0 else { break }
            let frames = block.withUnsafeMutableBufferPointer { source.render(into: $0) }
            guard frames > 0 else {
                bytes += repeatElement(0, count: min(left, pcm.count * 2))
                continue
            }
            let count = min(frames * format.channels, left / 2)
            block.withUnsafeBufferPointer { samples in
                pcm.withUnsafeMutableBufferPointer { WAVFile.convert(samples, count: count, into: $0) }
            }
            pcm.withUnsafeBytes { bytes += $0.prefix(count * 2) }
        }
        bytesDone += bytes.count
        return bytes
    }
}
