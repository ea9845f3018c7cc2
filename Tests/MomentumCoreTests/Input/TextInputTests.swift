import Testing

@testable import MomentumCore

@Suite("Texts from outside hold no control characters")
struct TextInputTests {
    @Test(arguments: [
        "\u{0}", "Focus\u{0}", "a\u{1B}[2J", "bell\u{7}", "del\u{7F}", "csi\u{9B}", "tab\there", "two\nlines",
    ])
    func aOneLineTextRefusesEveryControlCharacter(_ text: String) {
        #expect(throws: TextInputError.self) { try TextInput.check(text, field: "name") }
    }

    @Test func theErrorNamesTheFieldAndTheCharacter() {
        #expect(throws: TextInputError.controlCharacter(field: "name", code: 0)) {
            try TextInput.check("a\u{0}b", field: "name")
        }
    }

    @Test func notesMayHoldLineBreaksAndTabsButNoOtherControls() throws {
        try TextInput.check("first line\r\n\tsecond line", field: "notes", lines: .multiple)
        #expect(throws: TextInputError.controlCharacter(field: "notes", code: 0)) {
            try TextInput.check("cut\u{0}short", field: "notes", lines: .multiple)
        }
        #expect(throws: TextInputError.controlCharacter(field: "notes", code: 0x7F)) {
            try TextInput.check("\u{7F}", field: "notes", lines: .multiple)
        }
    }

    @Test(arguments: ["Focus", "Größe 🧘", "Zazen – 20 min", "", "   ", "\u{A0}non-breaking"])
    func ordinaryTextsPass(_ text: String) throws {
        try TextInput.check(text, field: "name")
        #expect(TextInput.firstControlCharacter(in: text) == nil)
    }
}
