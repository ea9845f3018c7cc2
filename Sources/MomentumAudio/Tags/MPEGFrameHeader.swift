/// The 4-byte header of an MPEG-1, 2 or 2.5 Layer III audio frame.
///
/// Free-format bitrates and reserved values are refused, which also keeps stray 0xFF bytes in
/// tags and pictures from passing for frames.
struct MPEGFrameHeader: Equatable {
    enum Version: Equatable {
        case mpeg1
        case mpeg2
        case mpeg25
    }

    var version: Version
    var bitrate: Int
    var sampleRate: Int
    var padded: Bool
    var mono: Bool
    var protectedByCRC: Bool

    private static let mpeg1Bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    private static let mpeg2Bitrates = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 else { return nil }
        let versionBits = bytes[1] >> 3 & 0x03
        let layerBits = bytes[1] >> 1 & 0x03
        let bitrateIndex = Int(bytes[2] >> 4)
        let sampleRateIndex = Int(bytes[2] >> 2 & 0x03)
        guard versionBits != 1, layerBits == 1, (1...14).contains(bitrateIndex), sampleRateIndex != 3,
            bytes[3] & 0x03 != 2
        else { return nil }
        switch versionBits {
        case 3: version = .mpeg1
        case 2: version = .mpeg2
        default: version = .mpeg25
        }
        let table = version == .mpeg1 ? Self.mpeg1Bitrates : Self.mpeg2Bitrates
        bitrate = table[bitrateIndex] * 1_000
        let baseRate = [44_100, 48_000, 32_000][sampleRateIndex]
        sampleRate = version == .mpeg1 ? baseRate : (version == .mpeg2 ? baseRate / 2 : baseRate / 4)
        padded = bytes[2] & 0x02 != 0
        mono = bytes[3] >> 6 == 3
        protectedByCRC = bytes[1] & 0x01 == 0
    }

    var samplesPerFrame: Int { version == .mpeg1 ? 1_152 : 576 }

    /// The frame's length in bytes, header included.
    var length: Int { (version == .mpeg1 ? 144 : 72) * bitrate / sampleRate + (padded ? 1 : 0) }

    /// The shortest frame this stream could have: its lowest bitrate, unpadded.
    var minimumLength: Int { (version == .mpeg1 ? 144 * 32_000 : 72 * 8_000) / sampleRate }

    /// Where a Xing/Info header starts, counted from the frame's first byte: after the header,
    /// the CRC and the side information.
    var sideInformationEnd: Int {
        let sideInformation = version == .mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        return 4 + (protectedByCRC ? 2 : 0) + sideInformation
    }

    /// Whether `other` can follow this frame in one stream.
    func continues(_ other: MPEGFrameHeader) -> Bool {
        version == other.version && sampleRate == other.sampleRate
    }
}
