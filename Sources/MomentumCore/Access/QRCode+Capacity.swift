// How many codewords each version holds and how they are split into blocks
// (ISO/IEC 18004, tables 7 and 9), with the data a symbol can carry in byte mode.

extension QRCode {
    /// Error correction codewords per block, by correction level, for versions 1 to 40.
    private static let correctionCodewordsPerBlock: [Correction: [Int]] = [
        .low: [
            7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
            28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        .medium: [
            10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
            26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        ],
        .quartile: [
            13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
            28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        .high: [
            17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
            30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
    ]

    /// Error correction blocks, by correction level, for versions 1 to 40.
    private static let blockCounts: [Correction: [Int]] = [
        .low: [
            1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
            8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25,
        ],
        .medium: [
            1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
            17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
        ],
        .quartile: [
            1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
            23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
        ],
        .high: [
            1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
            25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
        ],
    ]

    /// How a version's codewords split into error correction blocks at one level.
    struct BlockLayout: Equatable {
        var blockCount: Int
        var correctionCodewordsPerBlock: Int
        var totalCodewords: Int

        var dataCodewords: Int { totalCodewords - blockCount * correctionCodewordsPerBlock }
    }

    static func blockLayout(version: Int, correction: Correction) -> BlockLayout {
        BlockLayout(
            blockCount: blockCounts[correction, default: []][version - 1],
            correctionCodewordsPerBlock: correctionCodewordsPerBlock[correction, default: []][version - 1],
            totalCodewords: dataModuleCount(version: version) / 8)
    }

    /// The modules left for codewords (and remainder bits) once every function pattern,
    /// the format and the version information have taken theirs.
    static func dataModuleCount(version: Int) -> Int {
        let size = 17 + 4 * version
        let finders = 3 * 8 * 8  // each with its separator
        let timing = 2 * (size - 16)
        let alignmentCount = alignmentCenters(version: version).count
        // Alignment patterns that do not touch a finder, less the timing modules they cover.
        let alignments = max(alignmentCount * alignmentCount - 3, 0) * 25 - max(alignmentCount - 2, 0) * 2 * 5
        let format = 2 * 15 + 1  // two copies and the always-dark module
        let versionInformation = version >= 7 ? 2 * 18 : 0
        return size * size - finders - timing - alignments - format - versionInformation
    }

    /// The row and column coordinates of alignment pattern centers (ISO/IEC 18004, annex E):
    /// 6, then evenly spaced (by an even step) up to size − 7.
    static func alignmentCenters(version: Int) -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let last = 17 + 4 * version - 7
        // The spec's table spaces them evenly with an even step, rounded up; version 32 is its one exception.
        let step = version == 32 ? 26 : (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        return [6] + (0..<(count - 1)).reversed().map { last - $0 * step }
    }

    /// The bits of the character count field in byte mode.
    static func characterCountBits(version: Int) -> Int { version < 10 ? 8 : 16 }

    /// The most bytes a symbol of `version` at `correction` can carry in byte mode.
    public static func byteCapacity(version: Int, correction: Correction) -> Int {
        let dataBits = blockLayout(version: version, correction: correction).dataCodewords * 8
        return (dataBits - 4 - characterCountBits(version: version)) / 8
    }
}
