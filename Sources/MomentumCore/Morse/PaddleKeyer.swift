/// An electronic keyer for two paddles: it turns the paddles' presses and releases into dits and
/// dahs of exact length, at one speed, the way a hardware keyer does.
///
/// This is the reference for the browser's keyer (`js/morse-keyer.js`), which has to run in the
/// page and in its audio thread so the sidetone follows the paddles at once. Both read one table,
/// `browser-tests/keyer-fixtures.json`: a paddle script and the elements it must give, checked here
/// by `PaddleKeyerTests` and in Chromium by `browser-tests/test_morse_keys.py`.
///
/// The rules (docs/morse.md, "Keys and paddles"):
/// - A press while the keyer is idle starts that paddle's element at once.
/// - An element is followed by one unit of silence; at its end the keyer decides on the next
///   element, or falls idle.
/// - **Iambic A and B:** the other paddle goes next if it was down at any time in the element's
///   window; otherwise the same paddle, if it is down or was pressed again in the window; otherwise
///   the keyer falls idle. Mode A's window is the gap after the element, mode B's the element and
///   its gap — so in mode B, letting go of both paddles during an element still sends the other
///   element once more (the "squeeze" of Curtis mode B).
/// - **Ultimatic:** with both paddles down, the one pressed last repeats; with one down, it repeats;
///   with none down, a paddle pressed in the element or its gap is sent once. Of two presses at one
///   instant, the one given later is the later.
/// - A press that happens at the very instant of a decision counts for it. Events at one instant
///   are taken in the order given. An event earlier than the one before it, or than a decision
///   already made, is taken at that instant (times never go back).
///
/// ```swift
/// var keyer = try PaddleKeyer(characterWPM: 20, mode: .iambicB)  // a 60 ms unit
/// keyer.press(.dah, at: .zero)
/// keyer.press(.dit, at: .milliseconds(30))
/// keyer.release(.dit, at: .milliseconds(400))
/// keyer.release(.dah, at: .milliseconds(400))
/// keyer.advance(to: .seconds(1))
/// keyer.elements.map(\.mark)  // [.dah, .dit, .dah, .dit]: "C"
/// ```
public struct PaddleKeyer: Sendable, Hashable {
    /// How the keyer chooses the next element while both paddles are (or were) down.
    public enum Mode: String, Sendable, Hashable, CaseIterable, Codable {
        case iambicA
        case iambicB
        case ultimatic
    }

    /// One element the keyer sent: key down from `start` to `end`.
    public struct Element: Sendable, Hashable {
        public let mark: MorseMark
        public let start: Duration
        public let end: Duration
    }

    public let mode: Mode
    /// One dit: 1.2 s over the speed.
    public let unit: Duration
    /// Every element sent so far, in order (the last may still be sounding).
    public private(set) var elements: [Element] = []

    private var isDown: [MorseMark: Bool] = [:]
    private var pressedAt: [MorseMark: Duration] = [:]
    /// The order of the presses, for two at one instant.
    private var pressOrder: [MorseMark: Int] = [:]
    private var presses = 0
    private var releasedAt: [MorseMark: Duration] = [:]
    private var lastInstant: Duration?
    /// The element whose end (plus its gap) is still to be decided on; `nil` while idle.
    private var pending: Element?

    /// A keyer at `characterWPM` (the course's character speed, 5–60 wpm).
    ///
    /// - Throws: ``MorseError/characterSpeedOutOfRange(_:)`` outside the course's speeds.
    public init(characterWPM: Double, mode: Mode) throws(MorseError) {
        unit = try MorseTiming(characterWPM: characterWPM, effectiveWPM: characterWPM).unit
        self.mode = mode
    }

    /// When the keyer next decides (the end of the last element's gap), or `nil` while it is idle.
    public var decidesAt: Duration? { pending.map { $0.end + unit } }

    /// The paddle goes down at `instant`. A paddle already down is left as it is.
    public mutating func press(_ paddle: MorseMark, at instant: Duration) {
        let instant = taken(instant)
        guard isDown[paddle] != true else { return }
        isDown[paddle] = true
        pressedAt[paddle] = instant
        presses += 1
        pressOrder[paddle] = presses
        if pending == nil { start(paddle, at: instant) }
    }

    /// The paddle comes up at `instant`. A paddle already up is left as it is.
    public mutating func release(_ paddle: MorseMark, at instant: Duration) {
        let instant = taken(instant)
        guard isDown[paddle] == true else { return }
        isDown[paddle] = false
        releasedAt[paddle] = instant
    }

    /// Makes every decision that falls before `instant`.
    public mutating func advance(to instant: Duration) {
        while let decision = decidesAt, decision < instant { decide() }
    }

    /// Moves to `instant` (never back), making the decisions before it first.
    private mutating func taken(_ instant: Duration) -> Duration {
        let instant = max(instant, lastInstant ?? instant)
        lastInstant = instant
        advance(to: instant)
        return instant
    }

    private mutating func start(_ mark: MorseMark, at instant: Duration) {
        let element = Element(mark: mark, start: instant, end: instant + (mark == .dit ? unit : unit * 3))
        elements.append(element)
        pending = element
    }

    private mutating func decide() {
        guard let element = pending else { return }
        let decision = element.end + unit
        let next = nextMark(after: element)
        pending = nil
        // A decision made is final: a later event earlier than it is taken at it.
        lastInstant = max(lastInstant ?? decision, decision)
        if let next { start(next, at: decision) }
    }

    private func nextMark(after element: Element) -> MorseMark? {
        let windowStart = mode == .iambicA ? element.end : element.start
        func down(_ paddle: MorseMark) -> Bool { isDown[paddle] == true }
        func downInWindow(_ paddle: MorseMark) -> Bool {
            down(paddle) || (releasedAt[paddle].map { $0 > windowStart } ?? false)
        }
        func pressedInWindow(_ paddle: MorseMark) -> Bool {
            pressedAt[paddle].map { $0 > element.start && $0 >= windowStart } ?? false
        }
        let same = element.mark
        let other: MorseMark = same == .dit ? .dah : .dit
        switch mode {
        case .iambicA, .iambicB:
            if downInWindow(other) { return other }
            return down(same) || pressedInWindow(same) ? same : nil
        case .ultimatic:
            let held = MorseMark.allCases.filter(down)
            let candidates = held.isEmpty ? MorseMark.allCases.filter(pressedInWindow) : held
            return candidates.max {
                (pressedAt[$0] ?? .zero, pressOrder[$0] ?? 0) < (pressedAt[$1] ?? .zero, pressOrder[$1] ?? 0)
            }
        }
    }
}
