import MomentumCore

/// An instant on a test clock: an offset from an arbitrary origin, moved by tests, never slept on.
struct TestInstant: InstantProtocol, CustomStringConvertible {
    var offset: Duration

    static let origin = TestInstant(offset: .zero)

    func advanced(by duration: Duration) -> TestInstant { TestInstant(offset: offset + duration) }
    func duration(to other: TestInstant) -> Duration { other.offset - offset }
    static func < (lhs: TestInstant, rhs: TestInstant) -> Bool { lhs.offset < rhs.offset }

    var description: String { "t+\(offset)" }
}

extension TestInstant {
    static func at(_ duration: Duration) -> TestInstant { TestInstant(offset: duration) }
}

/// The tests' seeded generator is the core's own.
typealias SeededGenerator = SeededRandomNumberGenerator
