import MomentumCore

/// Text from tags: decoded from the encodings ID3, MP4 and RIFF use, then cleaned and capped.
public enum TagText {
    /// The longest value kept; longer ones are cut here (at a character boundary).
    public static let maximumCharacters = 200
    /// The most bytes read for one value: enough for 200 characters in any encoding, so a
    /// megabyte-long "artist" costs no more than a short one.
    static let maximumBytes = 4_096

    enum Encoding: Equatable {
        case isoLatin1
        /// UTF-16 whose byte order each string announces with a BOM (big-endian without one).
        case utf16WithByteOrderMark
        case utf16BigEndian
        case utf8

        /// The encoding an ID3v2 text frame names in its first byte.
        init?(id3Byte: UInt8) {
            switch id3Byte {
            case 0: self = .isoLatin1
            case 1: self = .utf16WithByteOrderMark
            case 2: self = .utf16BigEndian
            case 3: self = .utf8
            default: return nil
            }
        }

        var isUTF16: Bool { self == .utf16WithByteOrderMark || self == .utf16BigEndian }
    }

    /// The NUL-separated values in `bytes` (an ID3v2.4 frame may hold several), each decoded and
    /// cleaned, joined with " / "; `nil` when nothing is left.
    static func values(_ bytes: [UInt8], encoding: Encoding) -> String? {
        let unit = encoding.isUTF16 ? 2 : 1
        var parts: [String] = []
        var start = 0
        var index = 0
        while index + unit <= bytes.count {
            if bytes[index] == 0, unit == 1 || bytes[index + 1] == 0 {
                parts.append(decode(bytes[start..<index], encoding: encoding))
                start = index + unit
            }
            index += unit
        }
        parts.append(decode(bytes[start...], encoding: encoding))
        let cleaned = parts.compactMap(clean)
        return cleaned.isEmpty ? nil : clean(cleaned.joined(separator: " / "))
    }

    /// One string without terminators; undecodable bytes become U+FFFD, never an error.
    static func decode(_ bytes: ArraySlice<UInt8>, encoding: Encoding) -> String {
        switch encoding {
        case .isoLatin1:
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)
        case .utf16BigEndian:
            return utf16(bytes, bigEndian: true)
        case .utf16WithByteOrderMark:
            if bytes.starts(with: [0xFF, 0xFE]) { return utf16(bytes.dropFirst(2), bigEndian: false) }
            if bytes.starts(with: [0xFE, 0xFF]) { return utf16(bytes.dropFirst(2), bigEndian: true) }
            return utf16(bytes, bigEndian: true)
        }
    }

    /// RIFF INFO text: officially ASCII, in practice UTF-8 or a Windows code page; UTF-8 when it
    /// is valid UTF-8, else ISO-8859-1.
    static func utf8OrLatin1(_ bytes: ArraySlice<UInt8>) -> String {
        String(validating: bytes, as: UTF8.self) ?? decode(bytes, encoding: .isoLatin1)
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// `text` within the rule for names (``TextInput``): line breaks and tabs as spaces, without
    /// NULs, other control characters, bidirectional controls or byte order marks; trimmed, cut
    /// to ``maximumCharacters``; `nil` when empty.
    static func clean(_ text: String) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: scalars.append(" ")
            default: if !TextInput.isRefused(scalar, lines: .single) { scalars.append(scalar) }
            }
        }
        var cleaned = String(scalars).trimmingWhitespace()
        if cleaned.count > maximumCharacters {
            cleaned = String(cleaned.prefix(maximumCharacters)).trimmingWhitespace()
        }
        return cleaned.isEmpty ? nil : cleaned
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
