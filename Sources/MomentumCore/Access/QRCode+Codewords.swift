// The data bit stream in byte mode, its padding, and its split into error correction blocks
// (ISO/IEC 18004, 7.4 and 7.6).

extension QRCode {
    /// The final message: data codewords of every block interleaved, then their error
    /// correction codewords interleaved.
    static func interleavedCodewords(of bytes: [UInt8], version: Int, correction: Correction) -> [UInt8] {
        let layout = blockLayout(version: version, correction: correction)
        let data = dataCodewords(of: bytes, version: version, count: layout.dataCodewords)
        let blocks = splitIntoBlocks(data, layout: layout)
        let generator = reedSolomonGenerator(degree: layout.correctionCodewordsPerBlock)
        let corrections = blocks.map { reedSolomonRemainder(of: $0, generator: generator) }
        return interleaved(blocks) + interleaved(corrections)
    }

    /// Mode, count and bytes, then the terminator, zero bits up to a whole byte, and the two
    /// alternating pad bytes up to `count`.
    static func dataCodewords(of bytes: [UInt8], version: Int, count: Int) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, width: 4)  // byte mode
        bits.append(bytes.count, width: characterCountBits(version: version))
        for byte in bytes { bits.append(Int(byte), width: 8) }
        bits.append(0, width: min(4, count * 8 - bits.count))
        bits.append(0, width: (8 - bits.count % 8) % 8)
        let codewords = bits.bytes
        let padding = (0..<(count - codewords.count)).map { $0 % 2 == 0 ? UInt8(0xEC) : UInt8(0x11) }
        return codewords + padding
    }

    /// Consecutive blocks; when the codewords do not divide evenly, the later blocks hold one more.
    static func splitIntoBlocks(_ data: [UInt8], layout: BlockLayout) -> [[UInt8]] {
        let shortLength = layout.dataCodewords / layout.blockCount
        let longBlockCount = layout.dataCodewords % layout.blockCount
        let shortBlockCount = layout.blockCount - longBlockCount
        var blocks: [[UInt8]] = []
        var start = 0
        for index in 0..<layout.blockCount {
            let length = index < shortBlockCount ? shortLength : shortLength + 1
            blocks.append(Array(data[start..<(start + length)]))
            start += length
        }
        return blocks
    }

    /// The first codeword of every block, then the second of every block, and so on;
    /// shorter blocks are skipped once they run out.
    static func interleaved(_ blocks: [[UInt8]]) -> [UInt8] {
        let longest = blocks.map(\.count).max() ?? 0
        return (0..<longest).flatMap { index in blocks.compactMap { index < $0.count ? $0[index] : nil } }
    }
}

/// Bits appended most significant first, read back as bytes.
struct BitBuffer {
    private(set) var bits: [Bool] = []

    var count: Int { bits.count }

    mutating func append(_ value: Int, width: Int) {
        for shift in stride(from: width - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    /// The bits in groups of eight; callers pad to a whole byte first.
    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<min(start + 8, bits.count)].reduce(UInt8(0)) { ($0 << 1) | ($1 ? 1 : 0) }
        }
    }
}
