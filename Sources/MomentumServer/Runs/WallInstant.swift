import Foundation

/// An instant of the wall clock in whole milliseconds since 1970: what a browser reports, exact
/// to add and subtract, so a run computed from reported instants never drifts.
struct WallInstant: InstantProtocol, Sendable {
    var millisecondsSince1970: Int64

    init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    init(_ date: Date) {
        millisecondsSince1970 = Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }

    func advanced(by duration: Duration) -> WallInstant {
        WallInstant(millisecondsSince1970: millisecondsSince1970 + duration.wholeMilliseconds)
    }

    func duration(to other: WallInstant) -> Duration {
        .milliseconds(other.millisecondsSince1970 - millisecondsSince1970)
    }

    static func < (lhs: WallInstant, rhs: WallInstant) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }
}
