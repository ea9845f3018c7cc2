import Testing

@testable import MomentumCore

@Suite("Texts from outside hold no control characters; names no direction controls")
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

    /// Every bidirectional control and U+FEFF, as issue 46 lists them.
    static let directionControls: [UInt32] = [
        0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C, 0xFEFF,
    ]

    /// Anywhere in a name: first, in the middle, last, alone.
    @Test(arguments: directionControls)
    func aNameRefusesEveryDirectionControlAnywhere(code: UInt32) throws {
        let mark = String(Character(try #require(Unicode.Scalar(code))))
        for text in [mark + "Focus", "Fo" + mark + "cus", "Focus" + mark, mark] {
            #expect(throws: TextInputError.bidirectionalControl(field: "name", code: code)) {
                try TextInput.check(text, field: "name")
            }
            #expect(TextInput.firstRefusedCharacter(in: text)?.value == code)
        }
    }

    /// Notes (several lines, free text) keep them: a right-to-left language writes marks in prose.
    @Test(arguments: directionControls)
    func notesKeepDirectionControls(code: UInt32) throws {
        let mark = String(Character(try #require(Unicode.Scalar(code))))
        try TextInput.check("שלום" + mark + " notes", field: "notes", lines: .multiple)
    }

    /// The characters next to them stay allowed: zero-width joiners build emoji and Indic words.
    @Test(arguments: ["👩\u{200D}💻", "क\u{200C}ष", "\u{202F}narrow", "\u{2060}joined", "שלום", "مرحبا"])
    func neighboursOfTheDirectionControlsPass(_ text: String) throws {
        try TextInput.check(text, field: "name")
    }

    @Test(arguments: ["Focus", "Größe 🧘", "Zazen – 20 min", "", "   ", "\u{A0}non-breaking"])
    func ordinaryTextsPass(_ text: String) throws {
        try TextInput.check(text, field: "name")
        #expect(TextInput.firstRefusedCharacter(in: text) == nil)
    }
}
