import Foundation

/// The teachers to offer while the person types one: those already in the library whose shown
/// name contains what was typed.
///
/// Matching ignores case and accents ("jurg" finds "Jürgen Weiß"). A teacher equal to the typed
/// text but for case is left out — it is already there. Teachers that start with the text come
/// first, then the rest, each part in ``LibraryOrder`` in `locale`; at most ``maximumCount``.
/// Blank text suggests nothing.
///
/// ```swift
/// LibraryTeacherSuggestions.suggestions(for: "lind", among: items, locale: locale)
/// // ["Mara Lindqvist"]
/// ```
public enum LibraryTeacherSuggestions {
    public static let maximumCount = 5

    public static func suggestions(for text: String, among items: [LibraryItem], locale: Locale) -> [String] {
        suggestions(for: text, teachers: items.compactMap(\.teacher), locale: locale)
    }

    /// The suggestions among the names `teachers` (repeats and case variants counted once).
    public static func suggestions(for text: String, teachers: [String], locale: Locale) -> [String] {
        let query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { return [] }
        let loose: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        var starting: [String] = []
        var containing: [String] = []
        for teacher in LibraryOrder.distinctTeachers(teachers, locale: locale) {
            guard teacher.range(of: query, options: loose, locale: locale) != nil else { continue }
            if teacher.compare(query, options: .caseInsensitive, range: nil, locale: locale) == .orderedSame
                || teacher.lowercased(with: locale) == query.lowercased(with: locale)
            {
                continue
            }
            if teacher.range(of: query, options: loose.union(.anchored), locale: locale) != nil {
                starting.append(teacher)
            } else {
                containing.append(teacher)
            }
        }
        let order = { (lhs: String, rhs: String) in LibraryOrder.precedes(lhs, rhs, locale: locale) }
        return Array((starting.sorted(by: order) + containing.sorted(by: order)).prefix(maximumCount))
    }
}
