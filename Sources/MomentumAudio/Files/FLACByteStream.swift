/// A source as a FLAC file in byte chunks made only when asked for: the header, then frame after
/// frame (``FLACEncoder``). The samples are exactly the WAV stream's (``WAVFile/pcm(_:)``), so the
/// FLAC decodes to the same file's samples, bit for bit. Its length is known only once it is
/// made: sent as it is made, it has no `Content-Length`.
///
/// ```swift
/// var stream = FLACByteStream(source: TimelineReader(blocks: blocks))
/// while let chunk = stream.next() { try send(chunk) }
/// ```
public struct FLACByteStream<Source: AudioSource> {
    public private(set) var source: Source
    /// The frames encoded so far.
    public private(set) var framesDone = 0
    private var startedHeader = false
    private var frameIndex = 0
    private var block: [Float]
    private var pcm: [Int16]

    public init(source: Source) {
        self.source = source
        block = [Float](repeating: 0, count: FLACEncoder.blockSize * source.format.channels)
        pcm = [Int16](repeating: 0, count: block.count)
    }

    /// Whether every frame has been handed out.
    public var isFinished: Bool { startedHeader && framesDone >= source.frameCount }

    /// The next chunk: up to `frames` FLAC frames of ``FLACEncoder/blockSize`` (the first also holds
    /// the header); `nil` once every frame is out. A source that ends early is padded with
    /// silence, so the file holds as many frames as its header says.
    public mutating func next(frames: Int = 16) -> [UInt8]? {
        guard !isFinished else { return nil }
        let format = source.format
        var bytes: [UInt8] = []
        if !startedHeader {
            bytes = FLACEncoder.header(format: format, frameCount: source.frameCount)
            startedHeader = true
        }
        for _ in 0..<max(1, frames) {
            let wanted = min(FLACEncoder.blockSize, source.frameCount - framesDone)
            guard wanted > 0 else { break }
            var filled = 0
            block.withUnsafeMutableBufferPointer { buffer in
                while filled < wanted {
                    let part = UnsafeMutableBufferPointer(
                        rebasing: buffer[(filled * format.channels)..<(wanted * format.channels)])
                    let got = source.render(into: part)
                    guard got > 0 else { break }
                    filled += got
                }
                for index in (filled * format.channels)..<(wanted * format.channels) { buffer[index] = 0 }
            }
            let count = wanted * format.channels
            block.withUnsafeBufferPointer { samples in
                pcm.withUnsafeMutableBufferPointer { WAVFile.convert(samples, count: count, into: $0) }
            }
            bytes += pcm.withUnsafeBufferPointer { samples in
                FLACEncoder.frame(
                    UnsafeBufferPointer(rebasing: samples[0..<count]), frames: wanted, channels: format.channels,
                    sampleRate: format.sampleRate, index: frameIndex)
            }
            frameIndex += 1
            framesDone += wanted
        }
        return bytes
    }
}
