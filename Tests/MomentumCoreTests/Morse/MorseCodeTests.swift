import Foundation
import Testing

@testable import MomentumCore

@Suite("Morse code table: patterns, lookups both ways, prosigns and Koch orders")
struct MorseCodeTests {
    /// SPEC §7's table, in the order of ``MorseCode/symbols``.
    static let table: [(String, String)] = [
        ("A", ".-"), ("B", "-..."), ("C", "-.-."), ("D", "-.."), ("E", "."), ("F", "..-."), ("G", "--."),
        ("H", "...."), ("I", ".."), ("J", ".---"), ("K", "-.-"), ("L", ".-.."), ("M", "--"), ("N", "-."),
        ("O", "---"), ("P", ".--."), ("Q", "--.-"), ("R", ".-."), ("S", "..."), ("T", "-"), ("U", "..-"),
        ("V", "...-"), ("W", ".--"), ("X", "-..-"), ("Y", "-.--"), ("Z", "--.."),
        ("0", "-----"), ("1", ".----"), ("2", "..---"), ("3", "...--"), ("4", "....-"), ("5", "....."),
        ("6", "-...."), ("7", "--..."), ("8", "---.."), ("9", "----."),
        (".", ".-.-.-"), (",", "--..--"), ("?", "..--.."), ("/", "-..-."), ("=", "-...-"), ("+", ".-.-."),
        ("-", "-....-"),
        ("<AR>", ".-.-."), ("<SK>", "...-.-"), ("<BT>", "-...-"), ("<KN>", "-.--."),
    ]

    /// The symbol shown as `text`: a character, or a prosign written `<AR>`.
    private static func symbol(shownAs text: String) -> MorseSymbol? {
        if text.hasPrefix("<") { return MorseCode.symbol(prosignNamed: String(text.dropFirst().dropLast())) }
        return text.first.flatMap { MorseCode.symbol(for: $0) }
    }

    @Test(arguments: table)
    func everySymbolIsSentWithItsPattern(_ text: String, _ pattern: String) throws {
        let symbol = try #require(Self.symbol(shownAs: text))
        #expect(symbol.displayText == text)
        #expect(symbol.patternText == pattern)
        #expect(symbol.pattern == MorseMark.marks(from: pattern))
        #expect(symbol.description == "\(text) \(pattern)")
    }

    @Test func theTableHoldsExactlyTheSpecsSymbolsInOrder() {
        #expect(MorseCode.symbols.map(\.displayText) == Self.table.map(\.0))
        #expect(MorseCode.symbols.count == 26 + 10 + 7 + 4)
        // Only =/BT and +/AR share a pattern.
        let shared = Dictionary(grouping: MorseCode.symbols, by: \.patternText).values.filter { $0.count > 1 }
        #expect(Set(shared.map { $0.map(\.displayText) }) == [["=", "<BT>"], ["+", "<AR>"]])
    }

    @Test(arguments: "abcdefghijklmnopqrstuvwxyz")
    func lowerCaseLettersAreAcceptedAndShownUpperCase(_ letter: Character) throws {
        let symbol = try #require(MorseCode.symbol(for: letter))
        #expect(symbol.displayText == letter.uppercased())
        #expect(symbol.character == Character(letter.uppercased()))
        #expect(symbol == MorseCode.symbol(for: Character(letter.uppercased())))
    }

    @Test(
        arguments: ["ä", "É", "e\u{301}", "ß", "ı", "Ａ", "!", "(", "<", ">", "@", " ", "\n", "_", "*"] as [Character])
    func charactersWithoutACodeHaveNoSymbol(_ character: Character) {
        #expect(MorseCode.symbol(for: character) == nil)
    }

    @Test(arguments: MorseCode.symbols)
    func everySymbolIsFoundAgainByItsPattern(_ symbol: MorseSymbol) throws {
        let found = try #require(MorseCode.symbol(for: symbol.pattern))
        #expect(MorseCode.symbol(forPatternText: symbol.patternText) == found)
        switch symbol.kind {
        case .prosign(.bt): #expect(found.displayText == "=")
        case .prosign(.ar): #expect(found.displayText == "+")
        default: #expect(found == symbol)
        }
        if case .character(let character) = symbol.kind {
            #expect(MorseCode.symbol(for: character) == symbol)
        }
    }

    @Test func patternsSharedWithAProsignDecodeToThePunctuationMark() {
        #expect(MorseCode.symbol(forPatternText: "-...-")?.kind == .character("="))
        #expect(MorseCode.symbol(forPatternText: ".-.-.")?.kind == .character("+"))
        #expect(MorseCode.symbol(for: .bt).pattern == MorseCode.symbol(for: "=")?.pattern)
        #expect(MorseCode.symbol(for: .ar).pattern == MorseCode.symbol(for: "+")?.pattern)
        // The prosigns without a twin decode to themselves.
        #expect(MorseCode.symbol(forPatternText: "...-.-")?.kind == .prosign(.sk))
        #expect(MorseCode.symbol(forPatternText: "-.--.")?.kind == .prosign(.kn))
    }

    @Test(arguments: [
        ("AR", MorseProsign.ar), ("ar", .ar), ("Sk", .sk), ("bt", .bt), ("KN", .kn),
    ])
    func prosignsAreFoundByNameInAnyCase(_ name: String, _ prosign: MorseProsign) throws {
        #expect(MorseProsign(name: name) == prosign)
        let symbol = try #require(MorseCode.symbol(prosignNamed: name))
        #expect(symbol.kind == .prosign(prosign))
        #expect(symbol.displayText == "<\(name.uppercased())>")
        #expect(symbol.character == nil)
        #expect(symbol.pattern == prosign.pattern)
    }

    @Test(arguments: ["", "XY", "<AR>", "A R", "ARR", "SOS"])
    func otherNamesAreNoProsign(_ name: String) {
        #expect(MorseProsign(name: name) == nil)
        #expect(MorseCode.symbol(prosignNamed: name) == nil)
    }

    @Test(arguments: ["", "........", "---.-", ".-x", "·−", "- .", "-------"])
    func patternsOfNoSymbolFindNothing(_ text: String) {
        #expect(MorseCode.symbol(forPatternText: text) == nil)
    }

    @Test func patternTextIsReadAsMarksOnlyWhenItHoldsNothingButDotsAndDashes() {
        #expect(MorseMark.marks(from: ".-") == [.dit, .dah])
        #expect(MorseMark.marks(from: "") == [])
        #expect(MorseMark.marks(from: ". -") == nil)
        #expect(MorseMark.marks(from: "·") == nil)
        #expect(MorseMark.allCases.map(\.text) == [".", "-"])
    }

    @Test(arguments: [
        (KochOrder.standard, "K M R S U A P T L O W I N J E F Y V G Q Z H B C D X", 26),
        (.extended, "K M R S U A P T L O W I . N J E F 0 Y , V G 5 / Q 9 Z H 3 8 B ? 4 2 7 C 1 D 6 X", 40),
    ])
    func kochOrdersAreTheSpecsOrders(_ order: KochOrder, _ characters: String, _ count: Int) {
        let symbols = order.symbols
        #expect(symbols.map(\.displayText).joined(separator: " ") == characters)
        #expect(symbols.count == count)
        #expect(Set(symbols).count == count, "a character repeats")
        #expect(symbols.allSatisfy { $0.character != nil })
    }

    @Test func kochOrdersAreStoredByName() throws {
        #expect(KochOrder.allCases == [.standard, .extended])
        #expect(KochOrder.allCases.map(\.rawValue) == ["standard", "extended"])
        let data = try JSONEncoder().encode([KochOrder.extended, .standard])
        #expect(String(decoding: data, as: UTF8.self) == #"["extended","standard"]"#)
        #expect(try JSONDecoder().decode([KochOrder].self, from: data) == [.extended, .standard])
        #expect(KochOrder(rawValue: "Standard") == nil)
    }

    @Test func theExtendedOrderTeachesEveryLetterOfTheStandardOne() {
        let extended = Set(KochOrder.extended.symbols)
        #expect(KochOrder.standard.symbols.allSatisfy(extended.contains))
        #expect(KochOrder.extended.symbols.filter { $0.character?.isLetter == true } == KochOrder.standard.symbols)
    }
}
