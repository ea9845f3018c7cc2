import Foundation

/// The fields of a library item the person can change.
public enum LibraryField: String, Sendable, Equatable, CaseIterable {
    case teacher
    case name
}

/// What an edit does to one field: nothing, a new value, or back to what the file said.
public enum LibraryFieldEdit: Sendable, Equatable {
    case keep
    /// A new value; an empty or blank one restores the original.
    case set(String)
    case restoreOriginal
}

/// Why an edit of a library item was refused. Nothing is changed in any case.
public enum LibraryEditError: Error, Equatable, Sendable {
    /// The text is longer than ``LibraryText/maximumCharacters`` after trimming.
    case tooLong(field: LibraryField, characters: Int)
    /// The text holds a control character (a line break, a tab, an escape …).
    case controlCharacter(field: LibraryField)
    /// The text holds a bidirectional control or U+FEFF (see ``TextInput``).
    case bidirectionalControl(field: LibraryField)
}

/// The rules for the texts a person gives a library item.
public enum LibraryText {
    /// The longest teacher or name, in characters, after trimming.
    public static let maximumCharacters = 200

    /// `text` trimmed and checked; `nil` when it is blank, which means "restore the original".
    ///
    /// ```swift
    /// try LibraryText.validated("  Mara ", field: .teacher)  // "Mara"
    /// try LibraryText.validated("   ", field: .teacher)      // nil
    /// ```
    public static func validated(_ text: String, field: LibraryField) throws(LibraryEditError) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        // Checked before the length so a 10,000-character paste of a log says what is wrong with it.
        if let scalar = TextInput.firstRefusedCharacter(in: trimmed) {
            throw TextInput.isBidirectionalControl(scalar)
                ? .bidirectionalControl(field: field) : .controlCharacter(field: field)
        }
        let characters = trimmed.count
        guard characters <= maximumCharacters else { throw .tooLong(field: field, characters: characters) }
        return trimmed
    }

    /// Whether `scalar` never belongs in a name: ``TextInput``'s rule for one-line texts.
    static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        TextInput.isRefused(scalar, lines: .single)
    }
}

extension LibraryItem {
    /// This item with `teacher` and `name` edited; an edit equal to the original is no edit.
    public func editing(teacher: LibraryFieldEdit = .keep, name: LibraryFieldEdit = .keep)
        throws(LibraryEditError) -> LibraryItem
    {
        var item = self
        item.editedTeacher = try Self.edited(editedTeacher, original: originalTeacher, teacher, field: .teacher)
        item.editedName = try Self.edited(editedName, original: originalName, name, field: .name)
        return item
    }

    private static func edited(
        _ current: String?, original: String?, _ edit: LibraryFieldEdit, field: LibraryField
    ) throws(LibraryEditError) -> String? {
        switch edit {
        case .keep: return current
        case .restoreOriginal: return nil
        case .set(let text):
            guard let value = try LibraryText.validated(text, field: field), value != original else { return nil }
            return value
        }
    }
}
