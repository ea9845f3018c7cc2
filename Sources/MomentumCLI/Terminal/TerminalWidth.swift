extension String {
    /// How many terminal columns the text takes: two for East Asian wide and full-width characters
    /// and emoji shown as pictures (東, 가, Ａ, 🧘), one for every other character, so columns
    /// of Chinese, Japanese or Korean titles line up with Latin ones.
    var terminalWidth: Int {
        reduce(0) { width, character in width + (character.unicodeScalars.contains(where: \.isWide) ? 2 : 1) }
    }

    /// The text followed by spaces up to `width` columns (unchanged when it is as wide already).
    func padded(toColumns width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - terminalWidth))
    }
}

extension Unicode.Scalar {
    /// East Asian Wide (W) and Fullwidth (F) ranges of UAX #11, and emoji with picture presentation.
    fileprivate var isWide: Bool {
        if properties.isEmojiPresentation { return true }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// The narrowest terminal the players' screens are made for: every live line and header fits.
    static let narrowestColumns = 40

    /// The text broken at spaces into lines of at most `columns` columns; a word wider than that
    /// is cut into pieces. Empty text is one empty line.
    func wrapped(toColumns columns: Int = narrowestColumns) -> [String] {
        guard terminalWidth > columns else { return [self] }
        var lines: [String] = []
        var line = ""
        for word in split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            var word = word
            while word.terminalWidth > columns {
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                }
                var piece = ""
                while let first = word.first, (piece + String(first)).terminalWidth <= columns {
                    piece.append(first)
                    word.removeFirst()
                }
                lines.append(piece)
            }
            if line.isEmpty {
                line = word
            } else if (line + " " + word).terminalWidth <= columns {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
