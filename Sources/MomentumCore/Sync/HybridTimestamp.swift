import Foundation

/// A hybrid logical clock stamp: wall-clock milliseconds, a counter for changes within one
/// millisecond, and the node (replica) that made it. Stamps are totally ordered — by physical
/// time, then counter, then node — so any two replicas agree which of two changes came last.
///
/// The text form has fixed-width numbers, so comparing texts sorts exactly like comparing stamps:
///
/// ```swift
/// let stamp = try HybridTimestamp(parsing: "1800000000123-00002-laptop")
/// stamp.physical  // 1_800_000_000_123 (ms since 1970)
/// stamp.counter   // 2
/// ```
public struct HybridTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970 (UTC), at least the wall clock of the node that made the stamp.
    public let physical: Int64
    /// Orders stamps within one millisecond; 0 … ``maximumCounter``.
    public let counter: Int
    /// The replica that made the stamp; see ``checkNode(_:)`` for its form.
    public let node: String

    /// The largest counter. A clock that would need more moves its physical time on by 1 ms.
    public static let maximumCounter = 0xFFFF
    /// The largest physical time with 13 digits (the year 2286).
    public static let maximumPhysical: Int64 = 9_999_999_999_999
    public static let maximumNodeLength = 64
    static let physicalDigits = 13
    static let counterDigits = 5

    public init(physical: Int64, counter: Int, node: String) throws(HybridClockError) {
        guard (0...Self.maximumPhysical).contains(physical) else { throw .physicalOutOfRange(physical) }
        guard (0...Self.maximumCounter).contains(counter) else { throw .counterOutOfRange(counter) }
        try Self.checkNode(node)
        self.physical = physical
        self.counter = counter
        self.node = node
    }

    /// For values already checked by the clock.
    init(uncheckedPhysical physical: Int64, counter: Int, node: String) {
        self.physical = physical
        self.counter = counter
        self.node = node
    }

    /// A node id is 1–64 ASCII letters, digits or `. _ @ : -`, so it compares the same byte by
    /// byte and as text, and needs no escaping anywhere.
    public static func checkNode(_ node: String) throws(HybridClockError) {
        guard (1...maximumNodeLength).contains(node.utf8.count), node.utf8.allSatisfy(isNodeByte) else {
            throw .invalidNode(node)
        }
    }

    private static func isNodeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "@"), UInt8(ascii: ":"), UInt8(ascii: "-"): true
        default: false
        }
    }

    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
        if lhs.physical != rhs.physical { return lhs.physical < rhs.physical }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.node.utf8.lexicographicallyPrecedes(rhs.node.utf8)
    }

    /// `PPPPPPPPPPPPP-CCCCC-node`: 13 digits of milliseconds, 5 digits of counter, the node.
    public var description: String {
        Self.padded(physical, to: Self.physicalDigits) + "-" + Self.padded(Int64(counter), to: Self.counterDigits)
            + "-" + node
    }

    /// Reads the text form; anything else is ``HybridClockError/malformed(_:)``.
    public init(parsing text: String) throws(HybridClockError) {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == Self.physicalDigits, parts[1].utf8.count == Self.counterDigits,
            let physical = Self.digits(parts[0]), let counter = Self.digits(parts[1])
        else { throw .malformed(text) }
        do {
            try self.init(physical: physical, counter: Int(counter), node: String(parts[2]))
        } catch {
            throw .malformed(text)
        }
    }

    private static func digits(_ text: Substring) -> Int64? {
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int64(text)
    }

    private static func padded(_ value: Int64, to width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension HybridTimestamp: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a hybrid timestamp: \(text)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Why a stamp cannot be made, read or accepted.
public enum HybridClockError: Error, Equatable, Sendable {
    /// The text is not `PPPPPPPPPPPPP-CCCCC-node`.
    case malformed(String)
    case invalidNode(String)
    case physicalOutOfRange(Int64)
    case counterOutOfRange(Int)
    /// The stamp is more than ``HybridLogicalClock/maximumDrift`` ahead of the receiver's wall clock.
    case tooFarAhead(stamp: HybridTimestamp, wallMilliseconds: Int64)
}
