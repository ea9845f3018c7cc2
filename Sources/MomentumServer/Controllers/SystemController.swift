import Foundation
import Hummingbird

/// `/health` and `/openapi.yaml`, open to everyone, even off loopback; `/metrics`, behind the token.
struct SystemController {
    let version: String
    let metrics: ServerMetrics

    /// `/health` and `/openapi.yaml` on `router`, open to all; `/metrics` on `guarded`.
    func addRoutes(to router: Router<BasicRequestContext>, guarded: RouterGroup<BasicRequestContext>) {
        router.get("health", use: health)
        guarded.get("metrics", use: prometheus)
        router.get("openapi.yaml", use: openAPI)
    }

    struct Health: Encodable {
        var status: String
        var version: String
        /// The request as the server saw it, for `momentum doctor` to tell whether a proxy passes
        /// `X-Forwarded-Proto` and the host name: only what the asker sent.
        var request: SeenRequest
    }

    struct SeenRequest: Encodable {
        /// HTTPS, or `X-Forwarded-Proto: https` from a proxy.
        var secure: Bool
        /// The `Host` it was called by.
        var host: String
    }

    @Sendable func health(_ request: Request, context: BasicRequestContext) -> JSONResponse<Health> {
        JSONResponse(
            Health(
                status: "ok", version: version,
                request: SeenRequest(secure: LoginController.isTLS(request), host: request.head.authority ?? "")))
    }

    @Sendable func prometheus(_ request: Request, context: BasicRequestContext) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.text)))
    }

    @Sendable func openAPI(_ request: Request, context: BasicRequestContext) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
    }
}

/// The OpenAPI 3.1 description of every route, embedded in the binary.
enum OpenAPIDocument {
    static var bytes: [UInt8] { PackageResources.openapi_yaml }
}
