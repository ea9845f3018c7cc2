import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MomentumCore
import MomentumServices

/// `/api/v1/about` (the About view: the version, the promises, the open-source notices) and
/// `/manifest.webmanifest` (the installed app's manifest, with the person's most used practices as
/// `shortcuts`).
struct AboutController {
    let services: MomentumServices
    let version: String
    /// The access check of the person's API, asked again for the manifest's shortcuts.
    let guardian: AccessGuard<BasicRequestContext>
    let now: @Sendable () -> Date

    /// `about` behind the guard; the manifest on the bare router, since browsers fetch it without
    /// credentials unless the page asks (`crossorigin="use-credentials"`): it checks them itself.
    func addRoutes(to router: Router<BasicRequestContext>, guarded api: RouterGroup<BasicRequestContext>) {
        api.get("about", use: about)
        router.get(RouterPath(String(RoutedPaths.manifest.dropFirst())), use: manifest)
    }

    @Sendable func about(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<AboutInfo> {
        let language = try await LanguageChoice.language(for: request, settings: services.settings)
        return JSONResponse(AboutInfo(version: version, language: language))
    }

    /// The manifest every browser may read; the person's shortcuts only with a live credential
    /// (on loopback, where none is needed, always). Without one — the login page, an install
    /// prompt, someone else — it is the manifest without `shortcuts`, never a refusal: the app
    /// stays installable, and nothing of the person's shows.
    @Sendable func manifest(_ request: Request, context: BasicRequestContext) async throws -> Response {
        var manifest = WebManifest()
        if try await mayReadShortcuts(request) {
            do {
                let language = try await LanguageChoice.language(for: request, settings: services.settings)
                manifest.shortcuts = try await services.practiceShortcuts(now: now(), language: language).map {
                    WebManifest.Shortcut(name: $0.name, shortName: $0.name, url: $0.url)
                }
            } catch {
                // The manifest must load: without shortcuts this once, and the reason in the log.
                context.logger.error("the manifest's shortcuts could not be read", metadata: ["error": "\(error)"])
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/manifest+json; charset=utf-8", .cacheControl: "private, no-cache",
                .vary: "Cookie, Authorization",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(manifest))))
    }

    /// Whether `request` may see the person's shortcuts: what opens the person's API opens them
    /// (on loopback always while the household has one person; otherwise a live full credential
    /// of that person — a feed token is not one).
    func mayReadShortcuts(_ request: Request) async throws -> Bool {
        switch try await guardian.check(request) {
        case .allowed, .allowedRefreshingSession: true
        case .refused, .outOfScope, .choosePerson: false
        }
    }
}

/// The web app manifest: what the installed app is called, how it looks and where it opens, and
/// (for the person) the practices a long press on its icon offers.
struct WebManifest: Encodable, Equatable {
    var name = "Momentum"
    var shortName = "Momentum"
    var description = "A calm practice companion"
    var startURL = "/#meditate"
    var scope = "/"
    var display = "standalone"
    var backgroundColor = "#f6efe6"
    var themeColor = "#8a4b2a"
    var icons: [Icon] = [
        Icon(src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any"),
        Icon(src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any"),
        Icon(src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "maskable"),
    ]
    var shortcuts: [Shortcut]?

    private enum CodingKeys: String, CodingKey {
        case name, description, scope, display, icons, shortcuts
        case shortName = "short_name"
        case startURL = "start_url"
        case backgroundColor = "background_color"
        case themeColor = "theme_color"
    }

    struct Icon: Encodable, Equatable {
        var src: String
        var sizes: String
        var type: String
        var purpose: String
    }

    struct Shortcut: Encodable, Equatable {
        var name: String
        var shortName: String
        var url: String

        private enum CodingKeys: String, CodingKey {
            case name, url
            case shortName = "short_name"
        }
    }
}
