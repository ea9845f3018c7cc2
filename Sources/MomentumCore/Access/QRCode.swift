/// A QR code symbol (ISO/IEC 18004, Model 2) carrying text in byte mode, as UTF-8.
///
/// ```swift
/// let code = try QRCode.encode("https://example.org/pair/7GQ4")
/// code.terminalLines().forEach { print($0) }
/// ```
///
/// The encoder picks the smallest version (1–40) that holds the text at the chosen
/// correction level, and the mask with the lowest penalty score (ISO/IEC 18004, 7.8.3).
public struct QRCode: Sendable, Equatable {
    /// How much of the symbol may be damaged and still read: about 7, 15, 25 or 30 per cent.
    public enum Correction: Sendable, Equatable, CaseIterable {
        case low, medium, quartile, high
    }

    /// The versions the encoder can make.
    public static let versions = 1...40
    /// The data mask patterns, numbered as in the standard.
    public static let masks = 0...7

    /// 1 to 40; the symbol is 17 + 4 × version modules wide.
    public let version: Int
    public let correction: Correction
    /// The data mask applied (0–7).
    public let mask: Int
    /// Modules per side.
    public var size: Int { 17 + 4 * version }
    /// Row by row, `true` for dark.
    let modules: [Bool]

    /// Whether the module at column `x`, row `y` is dark; everything outside the symbol is light,
    /// as its quiet zone is.
    public subscript(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// Encodes `text` as UTF-8 in the smallest version that holds it.
    ///
    /// - Parameter mask: forces one data mask (0–7) instead of the best one; for tests that
    ///   compare with another encoder.
    /// - Throws: ``QRCodeError/tooLong(byteCount:maximum:)`` when not even version 40 holds the
    ///   text, ``QRCodeError/maskOutOfRange(_:)`` for a forced mask outside 0–7.
    public static func encode(
        _ text: String, correction: Correction = .medium, mask: Int? = nil
    ) throws(QRCodeError) -> QRCode {
        try encode(bytes: Array(text.utf8), correction: correction, mask: mask)
    }

    /// Encodes `bytes` as they are in the smallest version that holds them.
    public static func encode(
        bytes: [UInt8], correction: Correction = .medium, mask: Int? = nil
    ) throws(QRCodeError) -> QRCode {
        if let mask, !masks.contains(mask) { throw .maskOutOfRange(mask) }
        guard let version = smallestVersion(holding: bytes.count, correction: correction) else {
            throw .tooLong(byteCount: bytes.count, maximum: byteCapacity(version: 40, correction: correction))
        }
        let codewords = interleavedCodewords(of: bytes, version: version, correction: correction)
        var grid = ModuleGrid(version: version)
        grid.placeFunctionPatterns()
        grid.placeCodewords(codewords)
        let chosenMask = mask ?? bestMask(for: grid, correction: correction)
        grid.finish(mask: chosenMask, correction: correction)
        return QRCode(version: version, correction: correction, mask: chosenMask, modules: grid.dark)
    }

    static func smallestVersion(holding byteCount: Int, correction: Correction) -> Int? {
        versions.first { byteCapacity(version: $0, correction: correction) >= byteCount }
    }

    /// The mask whose finished symbol, format and version information included, scores the
    /// lowest penalty; the lowest number wins a tie.
    static func bestMask(for grid: ModuleGrid, correction: Correction) -> Int {
        let penalties = masks.map { mask in
            var candidate = grid
            candidate.finish(mask: mask, correction: correction)
            return candidate.penalty()
        }
        return masks.min { penalties[$0] < penalties[$1] } ?? 0
    }
}

/// Why text could not become a QR code.
public enum QRCodeError: Error, Sendable, Equatable {
    /// More bytes than the largest symbol holds at the chosen correction level.
    case tooLong(byteCount: Int, maximum: Int)
    /// A forced data mask outside 0–7.
    case maskOutOfRange(Int)

    /// The sentence that says what is wrong, as a catalog key with its arguments.
    public var localized: LocalizedText {
        switch self {
        case .tooLong(let byteCount, let maximum):
            LocalizedText(.errorQRCodeTooLong, ["count": "\(byteCount)", "maximum": "\(maximum)"])
        case .maskOutOfRange(let mask):
            LocalizedText(.errorQRCodeMaskOutOfRange, ["value": "\(mask)"])
        }
    }
}
