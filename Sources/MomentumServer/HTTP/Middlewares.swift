import Foundation
import HTTPTypes
import Hummingbird
import MomentumCore

/// Security headers on every response, errors included.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = SecurityHeaders.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.permissionsPolicy] = SecurityHeaders.permissionsPolicy
        return response
    }
}

/// The values of the security headers.
enum SecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    static let permissionsPolicy = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
}

// swift-format-ignore: NeverForceUnwrap
// Constant header names made of token characters: the initializer cannot fail for them.
extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let permissionsPolicy = Self("Permissions-Policy")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    /// A browser's name for the changes it makes (``DeviceNameMiddleware``).
    static let xMomentumDevice = Self("X-Momentum-Device")!
}

/// Refuses any path with `.` or `..` segments, empty segments (`//`), or an encoded slash,
/// backslash or NUL in a segment, before it can reach a route or the file system: one resource has
/// one spelling (a trailing slash aside, which the router ignores).
struct PathSafetyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let rawPath = request.head.path?.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        guard Self.isSafe(rawPath) else {
            throw APIError.badRequest(.apiPathNotAllowed, code: "bad_path")
        }
        return try await next(request, context)
    }

    static func isSafe(_ rawPath: String) -> Bool {
        guard rawPath.hasPrefix("/") else { return rawPath == "*" }
        let segments = rawPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (position, segment) in segments.enumerated() {
            if segment.isEmpty, position < segments.count - 1 { return false }
            // Most segments hold no escape: their bytes are what they decode to, checked without
            // decoding (this runs on every request).
            guard segment.utf8.contains(UInt8(ascii: "%")) else {
                if segment == "." || segment == ".."
                    || segment.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == 0 })
                {
                    return false
                }
                continue
            }
            let lowered = segment.lowercased()
            if lowered.contains("%2f") || lowered.contains("%5c") || lowered.contains("%00") { return false }
            guard let decoded = String(segment).removingPercentEncoding else { return false }
            if decoded == "." || decoded == ".." || decoded.contains("\\") || decoded.contains("\0") { return false }
        }
        return true
    }
}

/// Reads a request's body into memory up to the configured limit; a larger one is a 413,
/// whether its length was announced or it arrived in chunks. Bodies of `streamedPaths` (the
/// library's upload) are left to their route, which streams them to disk under its own limit.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limit: Int
    var streamedPaths: Set<String> = []

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if streamedPaths.contains(RoutedPaths.normalized(request.uri.path)) { return try await next(request, context) }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw APIError.bodyTooLarge
        }
        var request = request
        if [.post, .put, .patch].contains(request.method) {
            do {
                _ = try await request.collectBody(upTo: limit)
            } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                throw APIError.bodyTooLarge
            }
        }
        return try await next(request, context)
    }
}
