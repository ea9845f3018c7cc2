import Foundation

/// The kitty keyboard protocol (https://sw.kovidgoyal.net/kitty/keyboard-protocol/), for the
/// terminal's straight key: with it a terminal (kitty, foot, WezTerm, Ghostty, Alacritty, iTerm2
/// 3.5 …) reports when a key is let go, so the length of a press is known.
///
/// - ``query`` asks for the protocol's flags (`CSI ? u`) and then for the primary device
///   attributes (`CSI c`), which every terminal answers: a flags reply before the attributes
///   means the protocol is there; the attributes alone mean it is not.
/// - ``push`` turns on flags 1 (disambiguate), 2 (report press, repeat and release) and 8 (report
///   every key as an escape code); ``pop`` restores the terminal's own.
/// - A key then arrives as `CSI code[:alternates] ; modifiers[:event] [; text] u`, e.g. space down
///   `CSI 32 u` and up `CSI 32;1:3 u`.
enum KittyKeyboard {
    static let query = "\u{1B}[?u\u{1B}[c"
    static let push = "\u{1B}[>11u"
    static let pop = "\u{1B}[<u"
    /// How long a terminal may take to answer ``query`` (over SSH too).
    static let answerTime = Duration.milliseconds(500)

    enum Event: UInt32, Sendable, Equatable {
        case press = 1
        case `repeat` = 2
        case release = 3
    }

    /// What the terminal sent, read.
    enum Input: Sendable, Equatable {
        /// A byte outside any escape sequence: a key as a terminal sends it without the protocol.
        case byte(UInt8)
        /// A key: its Unicode code point (or the protocol's number of a functional key), the
        /// modifiers (1 + shift 1, alt 2, ctrl 4, …) and what happened to it.
        case key(code: UInt32, modifiers: UInt32, event: Event)
        /// The reply to the flags query.
        case flags(UInt32)
        /// The reply to the device-attributes query.
        case deviceAttributes
        /// Any other escape sequence (an arrow key, a reply nobody asked for): dropped.
        case other
    }

    /// The protocol's codes for the keys that are a straight key: space, `[` and `]` (a VBand or
    /// Vail adapter's) and the left and right Control keys (the adapters' other mapping).
    static let straightKeyCodes: Set<UInt32> = [32, 91, 93, 57442, 57448]

    /// Reads the bytes a terminal sends into ``Input``s. Sequences longer than ``limit`` bytes
    /// are no key: they are dropped as ``Input/other``, however long they go on.
    struct Parser: Sendable {
        static let limit = 64
        private var pending: [UInt8] = []
        private var overlong = false

        /// Whether a sequence has begun and not ended: a lone Esc may be waiting to be let out.
        var isInsideSequence: Bool { !pending.isEmpty }

        mutating func read(_ byte: UInt8) -> [Input] {
            switch pending.count {
            case 0:
                if byte == 0x1B {
                    pending = [byte]
                    return []
                }
                return [.byte(byte)]
            case 1:
                // Esc and then not `[`: the Esc was a key of its own.
                guard byte == UInt8(ascii: "[") else {
                    pending = []
                    return [.byte(0x1B)] + read(byte)
                }
                pending.append(byte)
                return []
            default:
                // Parameters and intermediates (0x20–0x3F) go on; a final byte (0x40–0x7E) ends.
                if (0x20...0x3F).contains(byte) {
                    if pending.count < Self.limit { pending.append(byte) } else { overlong = true }
                    return []
                }
                let body = pending.dropFirst(2)
                pending = []
                defer { overlong = false }
                guard !overlong, (0x40...0x7E).contains(byte) else { return [.other] }
                return [Self.sequence(String(decoding: body, as: UTF8.self), final: byte)]
            }
        }

        /// Lets a waiting lone Esc (or a sequence cut short) out as the bytes it was.
        mutating func flush() -> [Input] {
            defer { pending = [] }
            return pending.map { .byte($0) }
        }

        private static func sequence(_ parameters: String, final: UInt8) -> Input {
            switch final {
            case UInt8(ascii: "u"):
                if parameters.hasPrefix("?") { return UInt32(parameters.dropFirst()).map { .flags($0) } ?? .other }
                let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
                guard let first = fields.first, let code = UInt32(first.split(separator: ":").first ?? "") else {
                    return .other
                }
                var modifiers: UInt32 = 1
                var event = Event.press
                if fields.count > 1, !fields[1].isEmpty {
                    let parts = fields[1].split(separator: ":", omittingEmptySubsequences: false)
                    guard let written = UInt32(parts[0]) else { return .other }
                    modifiers = written
                    if parts.count > 1 {
                        guard let number = UInt32(parts[1]), let kind = Event(rawValue: number) else { return .other }
                        event = kind
                    }
                }
                return .key(code: code, modifiers: modifiers, event: event)
            case UInt8(ascii: "c") where parameters.hasPrefix("?"):
                return .deviceAttributes
            default:
                return .other
            }
        }
    }

    /// The bytes a terminal without the protocol would have sent for `code` pressed with
    /// `modifiers`, so the players' own keys (Enter, Backspace, Esc, q, p, Ctrl-C) work as ever;
    /// none for a functional key (an arrow, a modifier on its own).
    static func legacyBytes(code: UInt32, modifiers: UInt32) -> [UInt8] {
        let held = modifiers > 0 ? modifiers - 1 : 0
        let shift = held & 1 != 0
        let control = held & 4 != 0
        let letter = (97...122).contains(code)
        if control, letter { return [UInt8(code) & 0x1F] }
        if shift, letter { return [UInt8(code) - 32] }
        guard code < 57344, let scalar = Unicode.Scalar(code) else { return [] }
        return Array(String(Character(scalar)).utf8)
    }

    /// Asks the terminal whether it speaks the protocol: writes ``query`` with `write` and reads
    /// the answers from `events` for up to ``answerTime``. Keys pressed meanwhile are dropped.
    static func isSupported(events: any PlayerEventSource, write: (String) -> Void) async -> Bool {
        write(query)
        let deadline = events.now.advanced(by: answerTime)
        var parser = Parser()
        var supported = false
        while true {
            let event = await events.next(until: deadline)
            guard case .key(let byte) = event else {
                if event == nil || events.now >= deadline { return supported }
                continue
            }
            for input in parser.read(byte) {
                switch input {
                case .flags: supported = true
                case .deviceAttributes: return supported
                default: break
                }
            }
        }
    }
}

/// Keys read through the kitty keyboard protocol: the straight key's presses and releases come
/// as ``PlayerEvent/straightKey(down:)``, every other key as the bytes it would send without the
/// protocol (its releases and the straight key's repeats as nothing).
final class KittyKeyEvents: PlayerEventSource, @unchecked Sendable {
    // `parser` and `queue` are touched only while `lock` is held; `next(until:)` is called by one
    // player at a time.
    private let lock = NSLock()
    private let inner: any PlayerEventSource
    private var parser = KittyKeyboard.Parser()
    private var queue: [PlayerEvent] = []
    /// How long a lone Esc waits for the rest of a sequence before it is a key of its own.
    static let escapeWait = Duration.milliseconds(50)

    init(wrapping inner: any PlayerEventSource) { self.inner = inner }

    var now: ContinuousClock.Instant { inner.now }
    func restore() { inner.restore() }
    func wake() { inner.wake() }
    func setMode(enter: String, leave: String) -> Bool { inner.setMode(enter: enter, leave: leave) }

    func next(until deadline: ContinuousClock.Instant?) async -> PlayerEvent? {
        while true {
            if let ready = lock.withLock({ queue.isEmpty ? nil : queue.removeFirst() }) { return ready }
            let waiting = lock.withLock { parser.isInsideSequence }
            let escapeDeadline = waiting ? inner.now.advanced(by: Self.escapeWait) : nil
            let until = [deadline, escapeDeadline].compactMap { $0 }.min()
            let event = await inner.next(until: until)
            switch event {
            case .key(let byte):
                lock.withLock { queue += parser.read(byte).flatMap(Self.events) }
            case .tick:
                if waiting, let escapeDeadline, inner.now >= escapeDeadline {
                    lock.withLock { queue += parser.flush().flatMap(Self.events) }
                    continue
                }
                return .tick
            case .straightKey, nil:
                return event
            }
        }
    }

    private static func events(_ input: KittyKeyboard.Input) -> [PlayerEvent] {
        switch input {
        case .byte(let byte):
            return [.key(byte)]
        case .key(let code, _, let event) where KittyKeyboard.straightKeyCodes.contains(code):
            switch event {
            case .press: return [.straightKey(down: true)]
            case .release: return [.straightKey(down: false)]
            case .repeat: return []
            }
        case .key(let code, let modifiers, let event):
            guard event != .release else { return [] }
            return KittyKeyboard.legacyBytes(code: code, modifiers: modifiers).map { .key($0) }
        case .flags, .deviceAttributes, .other:
            return []
        }
    }
}
