/// One keyed element: a tone (dit, dah) or a silence (a gap) with its duration.
public struct MorseElement: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case dit
        case dah
        /// Between the dits and dahs of one character.
        case elementGap
        /// Between the characters of a word.
        case letterGap
        /// Between words, and after the last word when the text ends with whitespace.
        case wordGap
    }

    public var kind: Kind
    public var duration: Duration

    public init(kind: Kind, duration: Duration) {
        self.kind = kind
        self.duration = duration
    }

    /// Whether the tone sounds: a dit or a dah.
    public var isKeyDown: Bool {
        switch kind {
        case .dit, .dah: true
        case .elementGap, .letterGap, .wordGap: false
        }
    }
}

/// A text keyed into elements, with the characters that were skipped so a front end can warn.
///
/// ```swift
/// let keying = try MorseKeyer(timing: .init()).keying("73 ☺", skippingUnencodable: true)
/// keying.skipped  // ["☺"]
/// ```
public struct MorseKeying: Sendable, Hashable {
    public let elements: [MorseElement]
    /// Characters without a code that were dropped, in text order.
    public let skipped: [Character]
    /// The sum of the elements' durations: how long sending takes.
    public let duration: Duration

    public init(elements: [MorseElement], skipped: [Character] = []) {
        self.elements = elements
        self.skipped = skipped
        self.duration = elements.reduce(.zero) { $0 + $1.duration }
    }
}
