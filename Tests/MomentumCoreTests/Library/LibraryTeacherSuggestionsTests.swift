import Foundation
import MomentumCore
import Testing

@Suite("Teacher suggestions: contains, case-insensitive, at most 5, no exact match")
struct LibraryTeacherSuggestionsTests {
    static let teachers = [
        "Mara Lindqvist", "Jürgen Weiß", "Aiko Tanaka", "Tara Brach", "Marek Nowak", "Amara Okafor",
        "Maria Sanchez", "Tamara Levitt", "mara lindqvist", "Omar Marais",
    ]

    struct Case: CustomStringConvertible, Sendable {
        var typed: String
        var expected: [String]
        var description: String { "“\(typed)” → \(expected)" }
    }

    static let cases: [Case] = [
        // Starting matches first, then the rest, each A–Z; case variants counted once; at most 5.
        Case(
            typed: "mar", expected: ["Mara Lindqvist", "Marek Nowak", "Maria Sanchez", "Amara Okafor", "Omar Marais"]),
        Case(typed: "LIND", expected: ["Mara Lindqvist"]),
        // Accents are ignored when matching.
        Case(typed: "jurg", expected: ["Jürgen Weiß"]),
        Case(typed: "tara", expected: ["Tara Brach"]),
        Case(typed: "amar", expected: ["Amara Okafor", "Tamara Levitt"]),
        // An exact match (in any case) is what was typed already: not offered.
        Case(typed: "mara lindqvist", expected: []),
        Case(typed: "TARA BRACH", expected: []),
        Case(typed: "Tara B", expected: ["Tara Brach"]),
        Case(typed: "  aiko ", expected: ["Aiko Tanaka"]),
        Case(typed: "", expected: []),
        Case(typed: "   ", expected: []),
        Case(typed: "xyz", expected: []),
    ]

    @Test(arguments: cases)
    func suggestions(_ testCase: Case) {
        let found = LibraryTeacherSuggestions.suggestions(
            for: testCase.typed, teachers: Self.teachers, locale: LibraryTestItems.english)
        #expect(found == testCase.expected)
        #expect(found.count <= LibraryTeacherSuggestions.maximumCount)
    }

    @Test func suggestionsComeFromShownTeachersAndSkipUnknownOnes() {
        let items = [
            LibraryTestItems.item(1, teacher: "Old Tagger", name: "A", editedTeacher: "New Teacher"),
            LibraryTestItems.item(2, teacher: nil, name: "B"),
        ]
        let locale = LibraryTestItems.english
        #expect(LibraryTeacherSuggestions.suggestions(for: "teach", among: items, locale: locale) == ["New Teacher"])
        #expect(LibraryTeacherSuggestions.suggestions(for: "tagger", among: items, locale: locale).isEmpty)
        #expect(LibraryTeacherSuggestions.suggestions(for: "unknown", among: items, locale: locale).isEmpty)
    }

    @Test func theOrderDoesNotDependOnTheLibrarysOrder() {
        let forward = LibraryTeacherSuggestions.suggestions(
            for: "a", teachers: Self.teachers, locale: LibraryTestItems.english)
        let backward = LibraryTeacherSuggestions.suggestions(
            for: "a", teachers: Self.teachers.reversed(), locale: LibraryTestItems.english)
        #expect(forward == backward)
        #expect(forward.count == 5)
    }
}
