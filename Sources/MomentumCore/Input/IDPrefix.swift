import Foundation

/// How the terminal finds a record, a library item, a timer or a checklist item by the start of
/// its id, as `momentum log` lists it (`3f2a1c9e`): case is ignored, and at least
/// ``minimumLength`` characters are needed so that a short prefix never picks one by chance.
public enum IDPrefix {
    public static let minimumLength = 4

    /// Why nothing was found.
    public enum LookupError: Error, Equatable, Sendable {
        /// Fewer than ``IDPrefix/minimumLength`` characters.
        case tooShort
        case notFound
        /// More than one id starts so.
        case ambiguous
    }

    /// Whether `id` starts with `prefix`, which is long enough (ignoring case and outer spaces).
    public static func matches(_ prefix: String, id: UUID) -> Bool {
        let wanted = prefix.trimmingCharacters(in: .whitespaces).lowercased()
        return wanted.count >= minimumLength && id.uuidString.lowercased().hasPrefix(wanted)
    }

    /// The one element of `elements` whose id starts with `prefix`.
    public static func find<Element>(
        _ prefix: String, in elements: some Sequence<Element>, id: (Element) -> UUID
    ) throws(LookupError) -> Element {
        guard prefix.trimmingCharacters(in: .whitespaces).count >= minimumLength else { throw .tooShort }
        let found = elements.filter { matches(prefix, id: id($0)) }
        guard let first = found.first else { throw .notFound }
        guard found.count == 1 else { throw .ambiguous }
        return first
    }
}
