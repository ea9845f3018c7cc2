import Testing

@testable import MomentumCore

@Suite("Morse keyer: text to dits, dahs and gaps")
struct MorseKeyerTests {
    typealias Kind = MorseElement.Kind

    // Short names so sequences read like the code: d dit, a dah, e element gap, l letter gap, w word gap.
    private static let d = Kind.dit
    private static let a = Kind.dah
    private static let e = Kind.elementGap
    private static let l = Kind.letterGap
    private static let w = Kind.wordGap

    private static let paris: [Kind] = [
        d, e, a, e, a, e, d, l, d, e, a, l, d, e, a, e, d, l, d, e, d, l, d, e, d, e, d,
    ]
    private static let aThenB: [Kind] = [d, e, a, w, a, e, d, e, d, e, d]

    private static func keyer(_ character: Double = 20, _ effective: Double = 20) throws -> MorseKeyer {
        MorseKeyer(timing: try MorseTiming(characterWPM: character, effectiveWPM: effective))
    }

    @Test(
        arguments: [
            ("E", [d]),
            ("T", [a]),
            ("PARIS ", paris + [w]),
            ("PARIS", paris),
            ("paris", paris),
            ("<SK>", [d, e, d, e, d, e, a, e, d, e, a]),
            ("<sk>", [d, e, d, e, d, e, a, e, d, e, a]),
            ("<AR>", [d, e, a, e, d, e, a, e, d]),
            ("A B", aThenB),
            ("A  \n B", aThenB),
            ("a\tb", aThenB),
            ("\n  A B", aThenB),
            ("A B \t\n", aThenB + [w]),
            ("EE", [d, l, d]),
            ("E<KN>", [d, l, a, e, d, e, a, e, a, e, d]),
            ("E <BT> E", [d, w, a, e, d, e, d, e, d, e, a, w, d]),
            ("5?", [d, e, d, e, d, e, d, e, d, l, d, e, d, e, a, e, a, e, d, e, d]),
        ] as [(String, [Kind])])
    func textIsKeyedAsExactlyTheseElements(_ text: String, _ kinds: [Kind]) throws {
        #expect(try Self.keyer().elements(for: text).map(\.kind) == kinds)
    }

    @Test func aSingleDitIsTheWholeKeyingOfE() throws {
        let keying = try Self.keyer().keying("e")
        #expect(keying.elements == [MorseElement(kind: .dit, duration: .milliseconds(60))])
        #expect(keying.duration == .milliseconds(60))
        #expect(keying.skipped.isEmpty)
    }

    @Test(arguments: [(20.0, 20.0), (20, 10), (25, 13), (40, 40), (20, 13.27)])
    func everyElementLastsWhatTheTimingSaysForItsKind(_ character: Double, _ effective: Double) throws {
        let keyer = try Self.keyer(character, effective)
        let timing = keyer.timing
        for element in try keyer.elements(for: "CQ <SK> 73 ") {
            let expected: Duration
            switch element.kind {
            case .dit: expected = timing.dit
            case .dah: expected = timing.dah
            case .elementGap: expected = timing.elementGap
            case .letterGap: expected = timing.letterGap
            case .wordGap: expected = timing.wordGap
            }
            #expect(element.duration == expected)
            #expect(element.isKeyDown == (element.kind == .dit || element.kind == .dah))
        }
    }

    @Test func parisLastsThreeSecondsAtTwentyWPMAndSixWithFarnsworthSpacingAtTen() throws {
        #expect(try Self.keyer(20, 20).keying("PARIS ").duration == .seconds(3))
        let slow = try Self.keyer(20, 10).keying("PARIS ")
        #expect(slow.duration.isWithin(.microseconds(1), of: .seconds(6)))
        #expect(slow.elements.last?.kind == .wordGap)
        // Without the space the word ends after S's last dit.
        let word = try Self.keyer(20, 10).keying("PARIS")
        #expect(word.elements.last == MorseElement(kind: .dit, duration: .milliseconds(60)))
        #expect(word.duration == slow.duration - slow.elements[slow.elements.count - 1].duration)
    }

    @Test(arguments: [(20.0, 20.0), (20, 10), (25, 13), (40, 40), (20, 13.27), (60, 5), (5, 5), (30, 29.5)])
    func parisTakesSixtySecondsOverTheEffectiveSpeed(_ character: Double, _ effective: Double) throws {
        let keyer = try Self.keyer(character, effective)
        let keying = try keyer.keying("PARIS ")
        #expect(keying.duration.isWithin(.microseconds(1), of: .seconds(60 / effective)))
        let keyDown = keying.elements.filter(\.isKeyDown).reduce(Duration.zero) { $0 + $1.duration }
        #expect(keyDown == keyer.timing.unit * 22)
    }

    @Test func extraWordSpaceLengthensEveryWordGapOnce() throws {
        let timing = try MorseTiming(characterWPM: 20, effectiveWPM: 20, extraWordSpace: .seconds(1))
        let keying = try MorseKeyer(timing: timing).keying("A  B ")
        #expect(
            keying.elements.filter { $0.kind == .wordGap }.map(\.duration) == [
                .milliseconds(1420), .milliseconds(1420),
            ])
        // A .- (5 units) + B -... (9 units) + 2 word gaps of 7 units + 1 s each
        #expect(keying.duration == .milliseconds(60 * 28) + .seconds(2))
    }

    @Test(
        arguments: [
            ("ä", "ä", 0),
            ("AB ä", "ä", 3),
            ("CQ DE K1ABC!", "!", 11),
            // Positions count characters as a person sees them: é written as e + ◌́ is one.
            ("Ae\u{301}!", "e\u{301}", 1),
            ("🇩🇪 A", "🇩🇪", 0),
            ("A>", ">", 1),
            ("A (B)", "(", 2),
            ("A\r\nB_", "_", 3),
        ] as [(String, Character, Int)])
    func aCharacterWithoutACodeIsRefusedWithItsPosition(_ text: String, _ character: Character, _ position: Int)
        throws
    {
        let keyer = try Self.keyer()
        #expect(throws: MorseError.unencodableCharacter(character, position: position)) {
            try keyer.elements(for: text)
        }
        #expect(throws: MorseError.unencodableCharacter(character, position: position)) {
            try keyer.keying(text, skippingUnencodable: false)
        }
    }

    @Test(
        arguments: [
            ("A ä B", aThenB, ["ä"]),
            ("A ää ! B", aThenB, ["ä", "ä", "!"]),
            ("Aä B(", aThenB, ["ä", "("]),
            ("PAäRIS", paris, ["ä"]),
            ("ä PARIS", paris, ["ä"]),
            ("PARIS ä", paris + [w], ["ä"]),
            ("PARISä", paris, ["ä"]),
            ("A > B", aThenB, [">"]),
        ] as [(String, [Kind], [Character])])
    func skippingDropsCharactersWithoutACodeAndReportsThem(_ text: String, _ kinds: [Kind], _ skipped: [Character])
        throws
    {
        let keying = try Self.keyer().keying(text, skippingUnencodable: true)
        #expect(keying.elements.map(\.kind) == kinds)
        #expect(keying.skipped == skipped)
        #expect(keying.duration == keying.elements.reduce(.zero) { $0 + $1.duration })
    }

    @Test(arguments: ["", " ", "  \t\n ", "\r\n"])
    func textWithoutCharactersHasNothingToSend(_ text: String) throws {
        let keyer = try Self.keyer()
        #expect(throws: MorseError.nothingToSend) { try keyer.elements(for: text) }
        #expect(throws: MorseError.nothingToSend) { try keyer.keying(text, skippingUnencodable: true) }
    }

    @Test func textOfOnlySkippedCharactersHasNothingToSend() throws {
        let keyer = try Self.keyer()
        #expect(throws: MorseError.nothingToSend) { try keyer.keying("äöü ß", skippingUnencodable: true) }
        #expect(throws: MorseError.unencodableCharacter("ä", position: 0)) { try keyer.keying("äöü ß") }
    }

    @Test(arguments: [
        ("<XY>", MorseError.unknownProsign("XY")),
        ("CQ <sos> K", .unknownProsign("sos")),
        ("<>", .unknownProsign("")),
        ("<AR", .unclosedProsign(position: 0)),
        ("CQ <AR", .unclosedProsign(position: 3)),
        ("<A R>", .unclosedProsign(position: 0)),
        ("<AR <SK>", .unclosedProsign(position: 0)),
        ("E <<AR>", .unclosedProsign(position: 2)),
        ("1 < 2", .unclosedProsign(position: 2)),
    ])
    func prosignMistakesAreRefusedEvenWhenSkipping(_ text: String, _ expected: MorseError) throws {
        let keyer = try Self.keyer()
        #expect(throws: expected) { try keyer.elements(for: text) }
        #expect(throws: expected) { try keyer.keying(text, skippingUnencodable: true) }
    }

    @Test func anUnencodableCharacterBeforeAProsignMistakeIsTheOneReported() throws {
        #expect(throws: MorseError.unencodableCharacter("!", position: 1)) { try Self.keyer().elements(for: "A! <XY>") }
    }

    @Test(arguments: MorseCode.symbols)
    func aSymbolIsKeyedOnItsOwnWithoutGapsAround(_ symbol: MorseSymbol) throws {
        let elements = try Self.keyer().elements(for: symbol)
        #expect(elements.filter(\.isKeyDown).map { $0.kind == .dit ? MorseMark.dit : .dah } == symbol.pattern)
        #expect(elements.count == 2 * symbol.pattern.count - 1)
        #expect(elements.allSatisfy { $0.isKeyDown || $0.kind == .elementGap })
        #expect(try Self.keyer().elements(for: symbol.displayText) == elements)
    }

    @Test func textIsReadIntoWordsWithTheTrailingGapRemembered() throws {
        let text = try MorseText("cq de <kn> ")
        #expect(text.words.map { $0.map(\.displayText).joined() } == ["CQ", "DE", "<KN>"])
        #expect(text.endsWithWordGap)
        #expect(try MorseText("  CQ").endsWithWordGap == false)
        let keyer = try Self.keyer()
        #expect(keyer.keying(text) == (try keyer.keying("cq de <kn> ")))
    }
}
