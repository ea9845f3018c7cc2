import Foundation
import MomentumCore
import Testing

@Suite("Library order: grouped by teacher A–Z, names sorted within, in the person's locale")
struct LibraryOrderTests {
    typealias Items = LibraryTestItems

    struct SortCase: CustomStringConvertible, Sendable {
        var locale: Locale
        var input: [String]
        var expected: [String]
        var description: String { "\(locale.identifier): \(expected)" }
    }

    static let sortCases: [SortCase] = [
        // German (DIN 5007-1): umlauts sort with their base letter, ß as ss; case and accents only break ties.
        SortCase(
            locale: Items.german, input: ["Zimmer", "Özdemir", "Ohm", "apfel", "Äbte", "Otto", "Pause", "Straße"],
            expected: ["Äbte", "apfel", "Ohm", "Otto", "Özdemir", "Pause", "Straße", "Zimmer"]),
        SortCase(
            locale: Items.german, input: ["Müller", "Mueller", "Muller", "mühle"],
            expected: ["Mueller", "mühle", "Muller", "Müller"]),
        // French: accents are ignored first, then break ties (é after e).
        SortCase(
            locale: Items.french, input: ["Zoé", "élodie", "Emile", "Éric", "Ève", "Daniel"],
            expected: ["Daniel", "élodie", "Emile", "Éric", "Ève", "Zoé"]),
        SortCase(
            locale: Items.french, input: ["côte", "Cote", "coté", "cote"], expected: ["cote", "Cote", "coté", "côte"]),
        // Swedish: Ö is a letter of its own after Z — the locale really is followed.
        SortCase(locale: Items.swedish, input: ["Örn", "Zorn", "Olle"], expected: ["Olle", "Zorn", "Örn"]),
        SortCase(locale: Items.english, input: ["b", "B", "a", "A"], expected: ["a", "A", "b", "B"]),
    ]

    @Test("Sorting ignores case and accents and follows the locale", arguments: sortCases)
    func sortingFollowsTheLocale(_ sortCase: SortCase) {
        let sorted = sortCase.input.sorted { LibraryOrder.precedes($0, $1, locale: sortCase.locale) }
        #expect(sorted == sortCase.expected)
        // The order does not depend on the order things came in.
        let reversed = sortCase.input.reversed().sorted { LibraryOrder.precedes($0, $1, locale: sortCase.locale) }
        #expect(reversed == sortCase.expected)
    }

    @Test func onlyIdenticalStringsCompareEqual() {
        #expect(LibraryOrder.compare("Öz", "Oz", locale: Items.german) != .orderedSame)
        #expect(LibraryOrder.compare("a", "A", locale: Items.german) != .orderedSame)
        #expect(LibraryOrder.compare("Öz", "Öz", locale: Items.german) == .orderedSame)
    }

    @Test func groupsAreTeachersAToZWithNamesSortedWithin() {
        let items = [
            Items.item(1, teacher: "Özlem Kaya", name: "Zuhören"),
            Items.item(2, teacher: "Mara Lindqvist", name: "walking practice"),
            Items.item(3, teacher: nil, name: "Untitled"),
            Items.item(4, teacher: "Mara Lindqvist", name: "Body Scan"),
            Items.item(5, teacher: "Özlem Kaya", name: "Atem"),
            Items.item(6, teacher: "Aiko Tanaka", name: "Morning Sit"),
            Items.item(7, teacher: "Peter", name: "Ärger loslassen"),
            Items.item(8, teacher: "Peter", name: "Abend"),
        ]
        let groups = LibraryOrder.grouped(items, locale: Items.german)
        #expect(groups.map(\.teacher) == ["Aiko Tanaka", "Mara Lindqvist", "Özlem Kaya", "Peter", nil])
        #expect(
            groups.map { $0.items.map(\.name) } == [
                ["Morning Sit"], ["Body Scan", "walking practice"], ["Atem", "Zuhören"], ["Abend", "Ärger loslassen"],
                ["Untitled"],
            ])
        // In Swedish, Ö comes after every other letter.
        let swedish = LibraryOrder.grouped(items, locale: Items.swedish)
        #expect(swedish.map(\.teacher) == ["Aiko Tanaka", "Mara Lindqvist", "Peter", "Özlem Kaya", nil])
    }

    @Test func groupingUsesTheShownTeacherAndName() {
        let items = [
            Items.item(1, teacher: "Unknown Artist", name: "B", editedTeacher: "Zen Teacher"),
            Items.item(2, teacher: nil, name: "A", editedTeacher: "Zen Teacher", editedName: "C"),
            Items.item(3, teacher: "Ajahn", name: "Z", editedName: "A"),
        ]
        let groups = LibraryOrder.grouped(items, locale: Items.english)
        #expect(groups.map(\.teacher) == ["Ajahn", "Zen Teacher"])
        #expect(groups[1].items.map(\.name) == ["B", "C"])
    }

    @Test func teachersDifferingOnlyInCaseAreOneGroupInTheCommonestSpelling() {
        let items = [
            Items.item(1, teacher: "mara lindqvist", name: "One"),
            Items.item(2, teacher: "Mara Lindqvist", name: "Two"),
            Items.item(3, teacher: "Mara Lindqvist", name: "Three"),
            Items.item(4, teacher: "Jürgen Weiß", name: "Four"),
            Items.item(5, teacher: "Jurgen Weiss", name: "Five"),
        ]
        let groups = LibraryOrder.grouped(items, locale: Items.german)
        // Accents are kept apart (they may be different people), but sort next to each other.
        #expect(groups.map(\.teacher) == ["Jurgen Weiss", "Jürgen Weiß", "Mara Lindqvist"])
        #expect(groups[2].items.map(\.name) == ["One", "Three", "Two"])
    }

    @Test func equalNamesAreOrderedByImportTime() {
        let items = [
            Items.item(2, teacher: "T", name: "Same"), Items.item(1, teacher: "T", name: "same"),
            Items.item(3, teacher: "T", name: "Same"),
        ]
        let sorted = LibraryOrder.sortedByName(items, locale: Items.english)
        #expect(sorted.map(\.id) == [items[1].id, items[0].id, items[2].id])
    }

    @Test func anEmptyLibraryHasNoGroups() {
        #expect(LibraryOrder.grouped([], locale: Items.german).isEmpty)
    }
}
