/// The duration of the MPEG Layer III frames in a byte range: from a Xing/Info or VBRI header
/// when the first frame has one, else by walking every frame header.
struct MPEGAudioStream {
    let reader: SourceReader
    /// The audio's bytes: after any ID3v2 tag, before any ID3v1 or APE tag.
    let range: Range<Int>

    /// How far past the start to look for the first frame (junk after a tag, an unknown tag).
    static let firstFrameSearchLength = 128 * 1_024
    /// How far to look for the next frame after a damaged one before giving up.
    static let resynchronisationLength = 64 * 1_024
    /// More frames than 7 hours hold; past this the rest is extrapolated from the bytes left.
    var maximumScannedFrames = 1_000_000

    struct Frame: Equatable {
        var offset: Int
        var header: MPEGFrameHeader
    }

    /// The first frame: a valid header followed by another of the same stream (or by the end).
    func firstFrame() throws(AudioMetadataError) -> Frame? {
        let searchEnd = min(range.upperBound, range.lowerBound + Self.firstFrameSearchLength)
        var offset = range.lowerBound
        while let frame = try nextFrame(from: offset, before: searchEnd, matching: nil) {
            let following = frame.offset + frame.header.length
            let isLast = following <= range.upperBound && following + 4 > range.upperBound
            if isLast { return frame }
            if let next = try header(at: following), frame.header.continues(next) { return frame }
            offset = frame.offset + 1
        }
        return nil
    }

    func duration(from first: Frame) throws(AudioMetadataError) -> Duration {
        if let frames = try headerFrameCount(first), plausible(frames, first: first),
            let duration = Duration.ticks(
                UInt64(frames * first.header.samplesPerFrame), per: UInt64(first.header.sampleRate))
        {
            return duration
        }
        return try scannedDuration(from: first)
    }

    /// The frame count a Xing/Info (LAME) or VBRI (Fraunhofer) header in the first frame states.
    func headerFrameCount(_ first: Frame) throws(AudioMetadataError) -> Int? {
        let frameEnd = min(range.upperBound, first.offset + first.header.length)
        let xing = first.offset + first.header.sideInformationEnd
        let xingTag = xing + 12 <= frameEnd ? try reader.fourCharacterCode(at: xing) : ""
        if xingTag == "Xing" || xingTag == "Info" {
            let flags = try reader.integer(at: xing + 4, length: 4)
            if flags & 0x01 != 0 { return Int(try reader.integer(at: xing + 8, length: 4)) }
        }
        let vbri = first.offset + 4 + 32
        if vbri + 18 <= frameEnd, try reader.matches("VBRI", at: vbri) {
            return Int(try reader.integer(at: vbri + 14, length: 4))
        }
        return nil
    }

    /// Whether `frames` of at least the stream's shortest length fit in its bytes; a header
    /// claiming more (a damaged or cut file) is ignored in favour of the scan.
    private func plausible(_ frames: Int, first: Frame) -> Bool {
        frames > 0 && frames <= (range.upperBound - first.offset) / max(1, first.header.minimumLength) + 1
    }

    func scannedDuration(from first: Frame) throws(AudioMetadataError) -> Duration {
        var frame = first
        var frames = 0
        while frames < maximumScannedFrames {
            let following = frame.offset + frame.header.length
            guard following <= range.upperBound else { break }  // a last frame cut short is not counted
            frames += 1
            if let next = try header(at: following), first.header.continues(next) {
                frame = Frame(offset: following, header: next)
            } else if let next = try nextFrame(
                from: following, before: min(range.upperBound, following + Self.resynchronisationLength),
                matching: first.header)
            {
                frame = next
            } else {
                break
            }
        }
        var samples = UInt64(frames) * UInt64(first.header.samplesPerFrame)
        if frames == maximumScannedFrames {
            // Too long to walk: the bytes left hold as many samples per byte as those walked.
            let walked = Double(max(1, frame.offset - first.offset))
            let extra = Double(samples) * Double(max(0, range.upperBound - frame.offset)) / walked
            samples += UInt64(min(extra, 1e15))  // 700 years: a cap that keeps the conversion safe
        }
        return Duration.ticks(samples, per: UInt64(first.header.sampleRate)) ?? .zero
    }

    private func header(at offset: Int) throws(AudioMetadataError) -> MPEGFrameHeader? {
        guard offset >= range.lowerBound, offset + 4 <= range.upperBound else { return nil }
        return MPEGFrameHeader(try reader.bytes(in: offset..<offset + 4))
    }

    /// The first frame header at or after `offset` that starts before `end` (and, if given,
    /// belongs to the same stream as `stream`).
    private func nextFrame(from offset: Int, before end: Int, matching stream: MPEGFrameHeader?)
        throws(AudioMetadataError) -> Frame?
    {
        var candidate = offset
        while candidate < end {
            if try reader.byte(at: candidate) == 0xFF, let header = try header(at: candidate),
                stream.map({ $0.continues(header) }) ?? true
            {
                return Frame(offset: candidate, header: header)
            }
            candidate += 1
        }
        return nil
    }
}
