/// Texts from outside hold no control characters, and names no invisible direction controls.
///
/// A NUL cuts a text short in C code (SQLite's text functions, the terminal), and the other
/// controls of C0 (U+0001–U+001F), DEL (U+007F) and C1 (U+0080–U+009F) move a terminal's cursor,
/// ring its bell or start escape sequences when a name is printed. Names, item texts and other
/// one-line texts take none of them, nor the line and paragraph separators (U+2028, U+2029);
/// texts of several lines (a timer's notes) also take those, line feed, carriage return and tab.
///
/// One-line texts also refuse the bidirectional controls — the embeddings and overrides
/// U+202A–U+202E, the isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C — and U+FEFF
/// (a byte-order mark, or an invisible no-break space), anywhere: they make a name read
/// differently from what it is (`"\u{202E}txt.exe"` shows as `exe.txt`), or make two names that
/// look the same different. This is the one rule for every name: timers and their items, saved
/// sits, presets and programs, people, devices and tokens, library edits.
///
/// ```swift
/// try TextInput.check(name, field: "name")
/// try TextInput.check(notes, field: "notes", lines: .multiple)
/// ```
public enum TextInput {
    /// The most characters a name (a preset's, a program's, a timer's) may have.
    public static let maximumNameLength = 100

    /// Whether a text is one line (a name) or may hold line breaks and tabs (notes).
    public enum Lines: Sendable {
        case single
        case multiple
    }

    /// Refuses `text` when it holds a character `lines` does not allow.
    public static func check(_ text: String, field: String, lines: Lines = .single) throws(TextInputError) {
        guard let scalar = firstRefusedCharacter(in: text, lines: lines) else { return }
        if isBidirectionalControl(scalar) { throw .bidirectionalControl(field: field, code: scalar.value) }
        throw .controlCharacter(field: field, code: scalar.value)
    }

    /// The first character of `text` that `lines` does not allow, if any.
    public static func firstRefusedCharacter(in text: String, lines: Lines = .single) -> Unicode.Scalar? {
        text.unicodeScalars.first { isRefused($0, lines: lines) }
    }

    /// `text` within the rule: every control character `lines` does not allow replaced by a
    /// space, every bidirectional control (and U+FEFF) left out — what texts stored before the
    /// rule become (see the store's migrations "v11" and "v16").
    public static func cleaned(_ text: String, lines: Lines = .single) -> String {
        guard firstRefusedCharacter(in: text, lines: lines) != nil else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isRefused(scalar, lines: lines) {
                scalars.append(scalar)
            } else if !isBidirectionalControl(scalar) {
                scalars.append(" ")
            }
        }
        return String(scalars)
    }

    /// Whether a text of `lines` may not hold `scalar`.
    public static func isRefused(_ scalar: Unicode.Scalar, lines: Lines) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: lines == .single
        case 0x00...0x1F, 0x7F...0x9F: true
        default: lines == .single && isBidirectionalControl(scalar)
        }
    }

    /// The bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and
    /// U+FEFF: invisible, and refused in one-line texts.
    public static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0xFEFF: true
        default: false
        }
    }
}

/// Why a text from outside cannot be used.
public enum TextInputError: Error, Equatable, Sendable {
    /// `code` is the refused character's Unicode scalar value (0 for NUL).
    case controlCharacter(field: String, code: UInt32)
    /// A one-line text holds a bidirectional control or U+FEFF (`code`, see ``TextInput``).
    case bidirectionalControl(field: String, code: UInt32)
}
