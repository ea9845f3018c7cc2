import Foundation
import MomentumCore
import MomentumServices
import Testing

@testable import MomentumCLI

@Suite("The kitty keyboard protocol: key presses and releases read, and a straight key in send training")
struct KittyKeyboardTests {
    static func read(_ text: String) -> [KittyKeyboard.Input] {
        var parser = KittyKeyboard.Parser()
        return text.utf8.flatMap { parser.read($0) }
    }

    @Test func keysAreReadWithTheirEventsAndModifiers() {
        #expect(Self.read("\u{1B}[32u") == [.key(code: 32, modifiers: 1, event: .press)])
        #expect(Self.read("\u{1B}[32;1:3u") == [.key(code: 32, modifiers: 1, event: .release)])
        #expect(Self.read("\u{1B}[32;1:2u") == [.key(code: 32, modifiers: 1, event: .repeat)])
        #expect(Self.read("\u{1B}[57442;5u") == [.key(code: 57442, modifiers: 5, event: .press)])
        #expect(Self.read("\u{1B}[97:65;2u") == [.key(code: 97, modifiers: 2, event: .press)])
        #expect(Self.read("\u{1B}[?11u") == [.flags(11)])
        #expect(Self.read("\u{1B}[?62;22c") == [.deviceAttributes])
        #expect(Self.read("\u{1B}[A") == [.other])
        #expect(Self.read("q") == [.byte(UInt8(ascii: "q"))])
        // A lone Esc waits for what follows; a key after it lets it out as a key of its own.
        #expect(Self.read("\u{1B}q") == [.byte(27), .byte(UInt8(ascii: "q"))])
        var parser = KittyKeyboard.Parser()
        #expect(parser.read(27).isEmpty)
        #expect(parser.isInsideSequence)
        #expect(parser.flush() == [.byte(27)])
        #expect(!parser.isInsideSequence)
    }

    @Test func keysOtherThanTheStraightKeyComeAsTheBytesOfATerminalWithoutIt() {
        #expect(KittyKeyboard.legacyBytes(code: 113, modifiers: 1) == [UInt8(ascii: "q")])
        #expect(KittyKeyboard.legacyBytes(code: 113, modifiers: 2) == [UInt8(ascii: "Q")])
        #expect(KittyKeyboard.legacyBytes(code: 99, modifiers: 5) == [3])  // Ctrl-C
        #expect(KittyKeyboard.legacyBytes(code: 13, modifiers: 1) == [13])
        #expect(KittyKeyboard.legacyBytes(code: 27, modifiers: 1) == [27])
        #expect(KittyKeyboard.legacyBytes(code: 127, modifiers: 1) == [127])
        #expect(KittyKeyboard.legacyBytes(code: 228, modifiers: 1) == Array("ä".utf8))
        #expect(KittyKeyboard.legacyBytes(code: 57442, modifiers: 5).isEmpty)  // Ctrl on its own
        #expect(KittyKeyboard.legacyBytes(code: 0x11_0000, modifiers: 1).isEmpty)  // no code point
    }

    /// Hostile bytes: nothing crashes, nothing waits forever, an endless sequence is one `other`.
    @Test func anyBytesAreReadWithoutCrashingOrHoarding() {
        var random = SeededRandomNumberGenerator(seed: 44)
        var parser = KittyKeyboard.Parser()
        let alphabet: [UInt8] = Array("\u{1B}[;:?u0123456789c~A".utf8) + [0, 0x7F, 0xFF, 0x80]
        for _ in 0..<200_000 {
            _ = parser.read(alphabet[Int(random.next() % UInt64(alphabet.count))])
        }
        _ = parser.flush()
        var long = KittyKeyboard.Parser()
        #expect(long.read(27).isEmpty)
        #expect(long.read(UInt8(ascii: "[")).isEmpty)
        for _ in 0..<100_000 { #expect(long.read(UInt8(ascii: "9")).isEmpty) }
        #expect(long.read(UInt8(ascii: "u")) == [.other])
        #expect(long.read(UInt8(ascii: "q")) == [.byte(UInt8(ascii: "q"))])
    }

    // MARK: The straight key in send training

    /// `text`'s bytes at `seconds`, one microsecond apart.
    static func sequence(_ text: String, at seconds: Double) -> [(at: Duration, byte: UInt8)] {
        text.utf8.enumerated().map { (.seconds(seconds) + .microseconds($0.offset), $0.element) }
    }

    /// Space held for each element of `pattern` from `start` at `unit` seconds a dit: the bytes of
    /// its presses and releases.
    static func keyed(_ pattern: String, from start: Double, unit: Double) -> [(at: Duration, byte: UInt8)] {
        var bytes: [(at: Duration, byte: UInt8)] = []
        var at = start
        for mark in pattern {
            bytes += sequence("\u{1B}[32u", at: at)
            // A held key repeats; the repeats are no new presses.
            bytes += sequence("\u{1B}[32;1:2u", at: at + unit * 0.5)
            at += mark == "-" ? unit * 3 : unit
            bytes += sequence("\u{1B}[32;1:3u", at: at)
            at += unit
        }
        return bytes
    }

    @Test func aStraightKeyIsReadByItsLengthsAndTheAnswerSaysHowItWasKeyed() async throws {
        let terminal = try TestTerminal()
        // The terminal answers the query with its flags, then its attributes.
        var bytes = Self.sequence("\u{1B}[?0u\u{1B}[?62;22c", at: 0.01)
        bytes += Self.sequence("\u{1B}[13u", at: 1)  // Enter begins
        bytes += Self.sequence("\u{1B}[13;1:3u", at: 1.05)
        // Seed 2 draws M K M: M at 15 wpm (80 ms dits; complete at 4.06 s, K shown at 5.06 s), K at
        // 25 wpm (48 ms; complete at 7.83 s, M shown at 8.83 s), then M keyed with its second dah let
        // go after a dit: it reads as N (complete at 11.3 s; M replayed; next at 12.7 s).
        bytes += Self.keyed("--", from: 1.5, unit: 0.08)
        bytes += Self.keyed("-.-", from: 5.3, unit: 0.048)
        bytes += Self.keyed("-.", from: 8.9, unit: 0.06)
        bytes += Self.sequence("\u{1B}[113u", at: 13)  // q ends
        let events = ScriptedEvents(bytes: bytes)
        let morse = RecordingMorsePlayer(events: events)
        let status = await terminal.run(
            ["morse", "learn", "send", "--straight-key", "--seed", "2"], events: events, morse: morse,
            interactive: true)
        #expect(status == 0, "\(terminal.errors.text)")
        let text = terminal.output.text
        // The query and the flags pushed.
        #expect(text.hasPrefix(KittyKeyboard.query))
        #expect(text.contains(KittyKeyboard.push))
        #expect(text.contains("✓ M  --"), "\(text)")
        #expect(text.contains("✓ K  -.-"), "\(text)")
        #expect(text.contains("Your keying: 15 wpm"), "\(text)")
        #expect(text.contains("Your keying: 25 wpm"), "\(text)")
        #expect(text.contains("✗ N — it was M  --"), "\(text)")
        #expect(text.contains("Your M reads as N: a dah is let go soon enough to read as a dit."), "\(text)")
        #expect(!text.contains("does not key"))
        let services = try await MomentumServices.open(dataDirectory: terminal.directory.url, device: "check")
        let session = try #require(await services.morse.sessions().first)
        #expect(session.direction == .send)
        #expect(session.attempts == 3)
        #expect(session.correct == 2)
    }

    @Test func aTerminalWithoutTheProtocolSaysSoAndTakesDitsAndDahs() async throws {
        let terminal = try TestTerminal()
        // Only the attributes come back: no kitty keyboard protocol.
        var bytes = Self.sequence("\u{1B}[?62;22c", at: 0.01)
        bytes += [(.seconds(1), 10), (.seconds(1.5), UInt8(ascii: "-")), (.seconds(1.7), UInt8(ascii: "-"))]
        bytes += [(.seconds(5), UInt8(ascii: "q"))]
        let events = ScriptedEvents(bytes: bytes)
        let status = await terminal.run(
            ["morse", "learn", "send", "--straight-key", "--seed", "2"], events: events,
            morse: RecordingMorsePlayer(events: events), interactive: true)
        #expect(status == 0, "\(terminal.errors.text)")
        let text = terminal.output.text
        #expect(text.contains("This terminal does not say when a key is let go (the kitty keyboard protocol)"))
        #expect(!text.contains(KittyKeyboard.push))
        #expect(text.contains("✓ M  --"), "\(text)")
        // Not on a terminal (a pipe): no question is asked at all.
        let piped = try TestTerminal()
        let pipedEvents = ScriptedEvents(keys: [(.seconds(1), "q")])
        #expect(
            await piped.run(
                ["morse", "learn", "send", "--straight-key"], events: pipedEvents,
                morse: RecordingMorsePlayer(events: pipedEvents)) == 0)
        #expect(!piped.output.text.contains("\u{1B}[?u"))
        #expect(piped.output.text.contains("This terminal does not say when a key is let go"))
    }
}
