import Foundation

/// Instants as both stores keep them: whole milliseconds since 1970 (rounded to the nearest).
extension Date {
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
