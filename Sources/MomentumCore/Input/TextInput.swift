/// Texts from outside hold no control characters.
///
/// A NUL cuts a text short in C code (SQLite's text functions, the terminal), and the other
/// controls of C0 (U+0001–U+001F), DEL (U+007F) and C1 (U+0080–U+009F) move a terminal's cursor,
/// ring its bell or start escape sequences when a name is printed. Names, item texts and other
/// one-line texts take none of them, nor the line and paragraph separators (U+2028, U+2029);
/// texts of several lines (a timer's notes) also take those, line feed, carriage return and tab.
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

    /// Refuses `text` when it holds a control character `lines` does not allow.
    public static func check(_ text: String, field: String, lines: Lines = .single) throws(TextInputError) {
        if let scalar = firstControlCharacter(in: text, lines: lines) {
            throw .controlCharacter(field: field, code: scalar.value)
        }
    }

    /// The first control character of `text` that `lines` does not allow, if any.
    public static func firstControlCharacter(in text: String, lines: Lines = .single) -> Unicode.Scalar? {
        text.unicodeScalars.first { isRefused($0, lines: lines) }
    }

    /// `text` with every control character `lines` does not allow replaced by a space: what
    /// texts stored before this rule become (see the store's migration "v11").
    public static func cleaned(_ text: String, lines: Lines = .single) -> String {
        guard firstControlCharacter(in: text, lines: lines) != nil else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isRefused(scalar, lines: lines) ? " " : scalar) }
        return String(scalars)
    }

    static func isRefused(_ scalar: Unicode.Scalar, lines: Lines) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: lines == .single
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}

/// Why a text from outside cannot be used.
public enum TextInputError: Error, Equatable, Sendable {
    /// `code` is the refused character's Unicode scalar value (0 for NUL).
    case controlCharacter(field: String, code: UInt32)
}
