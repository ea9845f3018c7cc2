import Foundation

/// The teachers of the library, each with their meditations.
public struct LibraryTeacherGroup: Sendable, Equatable {
    /// The teacher as shown; `nil` for the items whose file named none ("Unknown teacher").
    public var teacher: String?
    /// The group's items, sorted by name.
    public var items: [LibraryItem]

    public init(teacher: String?, items: [LibraryItem]) {
        self.teacher = teacher
        self.items = items
    }
}

/// How the library is sorted and grouped: by teacher A–Z, names sorted within, ignoring case and
/// accents, in the person's locale.
///
/// Comparison is Foundation's `compare(_:options:range:locale:)` with `.caseInsensitive` and
/// `.diacriticInsensitive`: on Linux as on macOS it collates with ICU in the given locale, so in
/// German "Özdemir" sorts with the O's, and in Swedish after Z, as each language expects (the
/// tests pin both). Strings equal under that comparison are ordered by the locale's full
/// comparison (accents, then case), then by code points, so the order never depends on the
/// order items were stored in.
///
/// Teachers spelled the same but for case ("mara lindqvist", "Mara Lindqvist") are one group,
/// shown in the spelling most of its items use. Items without a teacher come last.
public enum LibraryOrder {
    /// `lhs` against `rhs` for sorting: case- and accent-insensitive in `locale`, with ties
    /// broken so that only identical strings compare equal.
    public static func compare(_ lhs: String, _ rhs: String, locale: Locale) -> ComparisonResult {
        let loose = lhs.compare(rhs, options: [.caseInsensitive, .diacriticInsensitive], range: nil, locale: locale)
        if loose != .orderedSame { return loose }
        let strict = lhs.compare(rhs, options: [], range: nil, locale: locale)
        if strict != .orderedSame { return strict }
        if lhs == rhs { return .orderedSame }
        return lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars) ? .orderedAscending : .orderedDescending
    }

    /// Whether `lhs` sorts before `rhs` in `locale`.
    public static func precedes(_ lhs: String, _ rhs: String, locale: Locale) -> Bool {
        compare(lhs, rhs, locale: locale) == .orderedAscending
    }

    /// `items` sorted by shown name in `locale`, then by import time and id.
    public static func sortedByName(_ items: [LibraryItem], locale: Locale) -> [LibraryItem] {
        items.sorted { lhs, rhs in
            switch compare(lhs.name, rhs.name, locale: locale) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame:
                lhs.importedAt != rhs.importedAt
                    ? lhs.importedAt < rhs.importedAt : lhs.id.uuidString < rhs.id.uuidString
            }
        }
    }

    /// `items` grouped by shown teacher, groups A–Z in `locale`, names sorted within; items
    /// without a teacher form the last group.
    ///
    /// - Complexity: O(*n* log *n*) comparisons.
    public static func grouped(_ items: [LibraryItem], locale: Locale) -> [LibraryTeacherGroup] {
        var byTeacher: [String: [LibraryItem]] = [:]
        var unknown: [LibraryItem] = []
        for item in items {
            guard let teacher = item.teacher else {
                unknown.append(item)
                continue
            }
            byTeacher[teacherKey(teacher, locale: locale), default: []].append(item)
        }
        var groups = byTeacher.values.map { members in
            LibraryTeacherGroup(
                teacher: spelling(of: members), items: sortedByName(members, locale: locale))
        }
        groups.sort { lhs, rhs in precedes(lhs.teacher ?? "", rhs.teacher ?? "", locale: locale) }
        if !unknown.isEmpty {
            groups.append(LibraryTeacherGroup(teacher: nil, items: sortedByName(unknown, locale: locale)))
        }
        return groups
    }

    /// What makes two teachers one group: the same text but for case.
    static func teacherKey(_ teacher: String, locale: Locale) -> String {
        teacher.lowercased(with: locale)
    }

    /// The spelling most of `members` show for their teacher.
    private static func spelling(of members: [LibraryItem]) -> String {
        commonestSpelling(members.compactMap(\.teacher))
    }

    /// The spelling `spellings` holds most often; on a tie, the first in code point order, which
    /// prefers capitals ("Mara" over "mara").
    static func commonestSpelling(_ spellings: [String]) -> String {
        var counts: [String: Int] = [:]
        for spelling in spellings { counts[spelling, default: 0] += 1 }
        return counts.sorted { lhs, rhs in
            lhs.value != rhs.value
                ? lhs.value > rhs.value : lhs.key.unicodeScalars.lexicographicallyPrecedes(rhs.key.unicodeScalars)
        }.first?.key ?? ""
    }

    /// `teachers` with case variants merged into their commonest spelling, each once.
    static func distinctTeachers(_ teachers: [String], locale: Locale) -> [String] {
        var byKey: [String: [String]] = [:]
        for teacher in teachers { byKey[teacherKey(teacher, locale: locale), default: []].append(teacher) }
        return byKey.values.map { commonestSpelling($0) }
    }
}
