/// Why a number from outside (a JSON body, a query parameter, a command-line option) cannot be
/// used. Converting `1e300` or `NaN` to a whole number with `Int64(_:)` stops the process, so
/// every such number goes through ``Swift/FixedWidthInteger/init(checking:field:)`` or
/// ``Swift/Duration/init(checkingMilliseconds:field:)`` first.
public enum NumberInputError: Error, Equatable, Sendable {
    /// Not a number, or infinite.
    case notFinite(field: String)
    /// Finite, but outside `bounds`.
    case outOfRange(field: String, value: Double, bounds: ClosedRange<Double>)
}

extension FixedWidthInteger {
    /// `value` rounded to the nearest whole number, when it is finite and fits this type.
    ///
    /// ```swift
    /// try Int64(checking: 12.6, field: "responseMs")  // 13
    /// try Int64(checking: 1e300, field: "responseMs")  // throws .outOfRange
    /// ```
    public init(checking value: Double, field: String) throws(NumberInputError) {
        guard value.isFinite else { throw .notFinite(field: field) }
        guard let whole = Self(exactly: value.rounded()) else {
            throw .outOfRange(field: field, value: value, bounds: Double(Self.min)...Double(Self.max))
        }
        self = whole
    }
}

extension Duration {
    /// The most milliseconds (either way) a duration from outside may have: about 31 years,
    /// far beyond any practice, and well inside what `Duration` and `Int64` microseconds hold.
    public static let largestInputMilliseconds: Double = 1e12

    /// `milliseconds` to the nearest microsecond, when it is finite and at most
    /// ``largestInputMilliseconds`` either way. The type that uses the duration checks its own
    /// bounds afterwards (a tone's rise time, a session's length).
    public init(checkingMilliseconds milliseconds: Double, field: String) throws(NumberInputError) {
        self = try Self.checked(milliseconds, millisecondsPerUnit: 1, field: field)
    }

    /// `seconds` to the nearest microsecond, with the bounds of ``init(checkingMilliseconds:field:)``.
    public init(checkingSeconds seconds: Double, field: String) throws(NumberInputError) {
        self = try Self.checked(seconds, millisecondsPerUnit: 1000, field: field)
    }

    /// `minutes` to the nearest microsecond, with the bounds of ``init(checkingMilliseconds:field:)``.
    public init(checkingMinutes minutes: Double, field: String) throws(NumberInputError) {
        self = try Self.checked(minutes, millisecondsPerUnit: 60_000, field: field)
    }

    private static func checked(
        _ value: Double, millisecondsPerUnit: Double, field: String
    ) throws(NumberInputError) -> Duration {
        guard value.isFinite else { throw .notFinite(field: field) }
        let largest = largestInputMilliseconds / millisecondsPerUnit
        guard (-largest...largest).contains(value) else {
            throw .outOfRange(field: field, value: value, bounds: -largest...largest)
        }
        return .microseconds(Int64((value * millisecondsPerUnit * 1000).rounded()))
    }
}
