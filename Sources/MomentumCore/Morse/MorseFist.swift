import Foundation

/// How a human sender keys: no two elements quite the same length (jitter), and some senders'
/// dahs long and marks heavy, their gaps short (a heavy fist). Applied to a keying's elements, so
/// whatever plays them — a render, the browser's scheduler — plays the sender's rhythm.
///
/// ```swift
/// let keyed = MorseFist.heavy.keyed(elements, unit: timing.unit, seed: 7)
/// ```
public struct MorseFist: Sendable, Hashable {
    /// Senders by name, for `--fist` and the presets.
    public enum Preset: String, Sendable, Hashable, CaseIterable, Codable {
        /// Machine-perfect: the keyer's own timing.
        case steady
        /// A good hand key or bug: every element a little off, about 8 %.
        case human
        /// Long dahs (3.8 dits), marks a quarter of a dit long and gaps as much short, 10 % jitter.
        case heavy
    }

    /// The standard deviation of each element's length, as a share of it: 0 … 0.3.
    public let jitter: Double
    /// A dah's length in dits (the book's 3): 2.5 … 4.5.
    public let dahWeight: Double
    /// Dits added to every mark and taken from every gap: −0.3 … 0.5.
    public let markWeight: Double

    public static let jitterBounds: ClosedRange<Double> = 0...0.3
    public static let dahWeightBounds: ClosedRange<Double> = 2.5...4.5
    public static let markWeightBounds: ClosedRange<Double> = -0.3...0.5

    public static let steady = MorseFist(unchecked: 0, 3, 0)

    public static func preset(_ preset: Preset) -> MorseFist {
        switch preset {
        case .steady: steady
        case .human: MorseFist(unchecked: 0.08, 3, 0)
        case .heavy: MorseFist(unchecked: 0.1, 3.8, 0.25)
        }
    }

    public init(jitter: Double, dahWeight: Double = 3, markWeight: Double = 0) throws(MorseBandConditionsError) {
        guard Self.jitterBounds.contains(jitter), Self.dahWeightBounds.contains(dahWeight),
            Self.markWeightBounds.contains(markWeight)
        else { throw .fistOutOfRange }
        self.init(unchecked: jitter, dahWeight, markWeight)
    }

    private init(unchecked jitter: Double, _ dahWeight: Double, _ markWeight: Double) {
        self.jitter = jitter
        self.dahWeight = dahWeight
        self.markWeight = markWeight
    }

    /// `elements` (keyed at `unit`) as this sender keys them; the same seed, the same rhythm. No
    /// element is shorter than a third of a dit, so nothing vanishes.
    public func keyed(_ elements: [MorseElement], unit: Duration, seed: UInt64) -> [MorseElement] {
        guard self != .steady else { return elements }
        var generator = SeededRandomNumberGenerator(seed: seed)
        let dit = unit.inSeconds
        let extra = dit * markWeight
        return elements.map { element in
            var seconds = element.duration.inSeconds
            switch element.kind {
            case .dit: seconds += extra
            case .dah: seconds = dit * dahWeight + extra
            case .elementGap, .letterGap, .wordGap: seconds -= extra
            }
            // Within two standard deviations: a hand is off now and then, never wildly.
            let spread = 1 + jitter * max(-2, min(2, Self.gaussian(using: &generator)))
            let shortest = dit / 3
            return MorseElement(kind: element.kind, duration: .seconds(max(shortest, seconds * spread)))
        }
    }

    /// A standard normal draw (Box–Muller).
    static func gaussian(using generator: inout some RandomNumberGenerator) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &generator)
        let v = Double.random(in: 0..<1, using: &generator)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
