import Foundation

/// An HTTP date (`Sun, 29 Nov 2026 21:00:00 GMT`, RFC 9110 §5.6.7): a `Date` header `momentum
/// doctor` compares clocks with, a push service's `Retry-After`.
public enum HTTPDate {
    public static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
