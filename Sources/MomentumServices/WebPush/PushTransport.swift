import Crypto
import Foundation

/// One push as it goes over the wire (RFC 8030 §5): a POST of the encrypted body to the
/// subscription's endpoint, with the VAPID `Authorization` and the delivery headers.
public struct PushRequest: Sendable {
    public var endpoint: PushEndpoint
    /// `Authorization`, `Content-Encoding`, `TTL`, `Urgency`, `Topic`, in that order.
    public var headers: [(name: String, value: String)]
    public var body: Data

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// What the push service answered.
public struct PushResponse: Sendable, Equatable {
    public var status: Int
    /// The `Retry-After` header, as sent (seconds or an HTTP date).
    public var retryAfter: String?

    public init(status: Int, retryAfter: String? = nil) {
        self.status = status
        self.retryAfter = retryAfter
    }
}

/// Why a push did not reach its push service.
public enum PushTransportError: Error, Equatable, Sendable {
    /// The endpoint's name resolved to an address the server does not send to (loopback,
    /// private, link-local …): checked right before each send, as DNS can change.
    case addressNotPublic(host: String)
    /// The name did not resolve.
    case unresolved(host: String)
    /// No connection, a TLS failure or no answer in time.
    case unreachable(String)

    /// One line for the subscription's last failure.
    public var summary: String {
        switch self {
        case .addressNotPublic(let host): "\(host) resolves to an address that is not public"
        case .unresolved(let host): "\(host) does not resolve"
        case .unreachable(let reason): "unreachable: \(reason)"
        }
    }
}

/// Where pushes are posted: HTTP with the address check (``HTTPPushTransport``), or a test's double.
public protocol PushTransport: Sendable {
    func send(_ request: PushRequest) async throws(PushTransportError) -> PushResponse
}

/// What to do after a push service's answer (RFC 8030 §5, and what the big push services answer).
public enum PushAnswer: Equatable, Sendable {
    /// 201 (or any 2xx): taken.
    case delivered
    /// 404 or 410: the subscription is gone.
    case gone
    /// 429 or 5xx, or no answer: try again, after the given wait if the service named one.
    case retry(after: TimeInterval?, failure: String)
    /// Anything else (400 a malformed push, 403 a key the subscription was not made with, 413 too large).
    case failed(String)

    public init(_ response: PushResponse, at now: Date) {
        switch response.status {
        case 200..<300: self = .delivered
        case 404, 410: self = .gone
        case 429, 500..<600:
            self = .retry(after: Self.seconds(retryAfter: response.retryAfter, at: now), failure: "\(response.status)")
        default: self = .failed("\(response.status)")
        }
    }

    public init(_ error: PushTransportError) {
        switch error {
        case .addressNotPublic: self = .failed(error.summary)
        case .unresolved, .unreachable: self = .retry(after: nil, failure: error.summary)
        }
    }

    /// `Retry-After` as seconds from `now`: a number of seconds or an HTTP date (RFC 9110 §10.2.3).
    static func seconds(retryAfter: String?, at now: Date) -> TimeInterval? {
        guard let text = retryAfter?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) { return TimeInterval(text.prefix(9)) }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

/// The request for one push: `payload` encrypted to the subscription, signed for its push service.
public enum WebPushRequest {
    /// How long a VAPID token lasts: 12 hours (RFC 8292 allows at most 24).
    public static let tokenLifetime: TimeInterval = 12 * 3600
    /// The longest TTL push services keep a message: four weeks.
    public static let longestTTL = 28 * 86_400

    public enum Urgency: String, Sendable {
        case veryLow = "very-low"
        case low, normal, high
    }

    public static func make(
        payload: Data, to subscription: PushEndpoint, keys: PushSubscriptionKeys, key: VAPIDKey,
        contact: VAPIDContact?, ttl: Int, urgency: Urgency, topic: String?, now: Date,
        ephemeral: WebPushEncryption.Ephemeral = .random()
    ) throws(WebPushError) -> PushRequest {
        let body = try WebPushEncryption.encrypt(payload, to: keys, using: ephemeral)
        let authorization = try key.authorization(
            audience: subscription.origin, contact: contact, expiry: now.addingTimeInterval(tokenLifetime))
        var headers: [(name: String, value: String)] = [
            ("Authorization", authorization), ("Content-Encoding", "aes128gcm"),
            ("Content-Type", "application/octet-stream"),
            ("TTL", "\(min(max(ttl, 0), longestTTL))"), ("Urgency", urgency.rawValue),
        ]
        if let topic { headers.append(("Topic", topic)) }
        return PushRequest(endpoint: subscription, headers: headers, body: body)
    }

    /// A `Topic` for `name` (RFC 8030 §5.4: at most 32 characters of base64url): a newer push of
    /// the same topic replaces an older one the device has not fetched yet.
    public static func topic(for name: String) -> String {
        String(Base64URL.encode(Data(SHA256.hash(data: Data(name.utf8)))).prefix(32))
    }
}
