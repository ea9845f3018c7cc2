import Testing

@testable import MomentumCore

@Suite("Did you mean: the closest known name within two edits")
struct NameSuggestionTests {
    @Test(arguments: [
        ("kitten", "sitting", 3), ("", "abc", 3), ("abc", "", 3), ("flaw", "lawn", 2), ("same", "same", 0),
        ("ä", "a", 1),
    ])
    func distanceCountsInsertionsDeletionsAndSubstitutions(a: String, b: String, expected: Int) {
        #expect(NameSuggestion.distance(a, b) == expected)
        #expect(NameSuggestion.distance(b, a) == expected)
    }

    @Test func aTypoWithinTwoEditsIsSuggested() {
        let commands = ["meditate", "breathe", "workout", "timer", "log", "streak", "stats", "calendar"]
        #expect(NameSuggestion.closest(to: "medtate", among: commands) == "meditate")
        #expect(NameSuggestion.closest(to: "BREAHTE", among: commands) == "breathe")
        #expect(NameSuggestion.closest(to: "workotu", among: commands) == "workout")
        #expect(NameSuggestion.closest(to: "calender", among: commands) == "calendar")
    }

    @Test func nothingIsSuggestedWhenFarOffExactOrAmbiguous() {
        #expect(NameSuggestion.closest(to: "xyzzy", among: ["meditate", "breathe"]) == nil)
        #expect(NameSuggestion.closest(to: "meditatexyz", among: ["meditate"]) == nil)
        #expect(NameSuggestion.closest(to: "Box", among: ["box", "fox"]) == nil)
        #expect(NameSuggestion.closest(to: "cox", among: ["box", "fox"]) == nil)
        #expect(NameSuggestion.closest(to: "", among: ["a"]) == nil)
    }
}
