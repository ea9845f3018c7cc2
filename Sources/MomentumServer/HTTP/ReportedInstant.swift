import Foundation
import MomentumCore

/// The instant a request reports for the person's action (its `"at"`), or now when it reports
/// none. A reported instant must lie within ``InstantWindow/run(around:)`` of the server's now:
/// a run started in 1969 would be logged before 1970 and then wedge every run route.
enum ReportedInstant {
    static func instant(_ reported: Date?, now: Date, field: String = "at") throws(InstantWindowError) -> Date {
        guard let reported else { return now }
        try InstantWindow.run(around: now).check(reported, field: field)
        return reported
    }
}
