/// Hand-built bytes of tags, frames, boxes and chunks, for what the fixtures do not show.
enum AudioTestBytes {
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func bigEndian(_ value: Int, length: Int) -> [UInt8] {
        (0..<length).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static func littleEndian(_ value: Int, length: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static func synchsafe(_ value: Int) -> [UInt8] {
        (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 7) & 0x7F) }
    }

    // MARK: ID3v2

    /// A tag of `major` version whose body is `body` (frames, padding, an extended header).
    static func id3v2(major: UInt8, flags: UInt8 = 0, body: [UInt8]) -> [UInt8] {
        ascii("ID3") + [major, 0, flags] + synchsafe(body.count) + body
    }

    /// A frame with `content` (for text: the encoding byte and the text), sized for `major`.
    static func id3Frame(_ id: String, major: UInt8, flags: [UInt8] = [0, 0], content: [UInt8]) -> [UInt8] {
        switch major {
        case 2: ascii(id) + bigEndian(content.count, length: 3) + content
        case 3: ascii(id) + bigEndian(content.count, length: 4) + flags + content
        default: ascii(id) + synchsafe(content.count) + flags + content
        }
    }

    static func latin1Text(_ text: String) -> [UInt8] {
        [0] + text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    }

    static func utf16BigEndianText(_ text: String) -> [UInt8] {
        [2] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    static func utf8Text(_ text: String) -> [UInt8] { [3] + ascii(text) }

    /// `bytes` with a 0x00 inserted after every 0xFF.
    static func unsynchronised(_ bytes: [UInt8]) -> [UInt8] {
        bytes.flatMap { $0 == 0xFF ? [0xFF, 0x00] : [$0] }
    }

    // MARK: MPEG audio

    /// A Layer III frame header: `versionBits` 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5.
    static func mpegHeader(versionBits: UInt8, bitrateIndex: UInt8, sampleRateIndex: UInt8 = 0, padded: Bool = false)
        -> [UInt8]
    {
        [
            0xFF, 0xE0 | versionBits << 3 | 0x02 | 0x01, bitrateIndex << 4 | sampleRateIndex << 2 | (padded ? 2 : 0),
            0x00,
        ]
    }

    /// `count` silent frames of the given header, each `length` bytes long.
    static func mpegFrames(_ header: [UInt8], length: Int, count: Int) -> [UInt8] {
        Array(repeating: header + [UInt8](repeating: 0, count: length - 4), count: count).flatMap { $0 }
    }

    // MARK: MP4

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        bigEndian(body.count + 8, length: 4) + Array(type.unicodeScalars.map { UInt8($0.value) }) + body
    }

    /// A box whose size sits in the 64-bit `largesize` field.
    static func largeBox(_ type: String, _ body: [UInt8]) -> [UInt8] {
        bigEndian(1, length: 4) + ascii(type) + bigEndian(body.count + 16, length: 8) + body
    }

    static func mvhd(version: UInt8, timescale: Int, duration: Int) -> [UInt8] {
        let times = version == 0 ? [UInt8](repeating: 0, count: 8) : [UInt8](repeating: 0, count: 16)
        let length = version == 0 ? 4 : 8
        return box(
            "mvhd",
            [version, 0, 0, 0] + times + bigEndian(timescale, length: 4) + bigEndian(duration, length: length)
                + [UInt8](repeating: 0, count: 80))
    }

    static func ilstItem(_ type: String, _ text: String) -> [UInt8] {
        box(type, box("data", [0, 0, 0, 1, 0, 0, 0, 0] + ascii(text)))
    }

    static func udta(items: [[UInt8]]) -> [UInt8] {
        let handler = box("hdlr", [UInt8](repeating: 0, count: 8) + ascii("mdirappl") + [UInt8](repeating: 0, count: 9))
        return box("udta", box("meta", [0, 0, 0, 0] + handler + box("ilst", items.flatMap { $0 })))
    }

    // MARK: RIFF

    static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        ascii(id) + littleEndian(body.count, length: 4) + body + (body.count % 2 == 1 ? [0] : [])
    }

    static func waveFormat(sampleRate: Int, channels: Int, bitsPerSample: Int = 16) -> [UInt8] {
        let blockAlign = channels * bitsPerSample / 8
        return chunk(
            "fmt ",
            littleEndian(1, length: 2) + littleEndian(channels, length: 2) + littleEndian(sampleRate, length: 4)
                + littleEndian(sampleRate * blockAlign, length: 4) + littleEndian(blockAlign, length: 2)
                + littleEndian(bitsPerSample, length: 2))
    }

    static func riffWave(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = ascii("WAVE") + chunks.flatMap { $0 }
        return ascii("RIFF") + littleEndian(body.count, length: 4) + body
    }
}
