import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `/api/v1/catalog` (the strings of a language, its locale and every form field's bounds) and `/api/v1/ambient` (the ambient sounds).
struct CatalogController {
    let settings: SettingsService

    /// The catalog on `open` (the login page speaks from it; it holds the product's texts only),
    /// the ambient sounds on `guarded`.
    func addRoutes(open: RouterGroup<BasicRequestContext>, guarded: RouterGroup<BasicRequestContext>) {
        open.get("catalog", use: catalog)
        guarded.get("ambient", use: ambient)
    }

    struct Catalog: Encodable {
        var language: Language
        /// The BCP 47 tag (`en-GB`, `de-DE`) the browser formats dates, numbers and lists in:
        /// the core's `Language.bcp47Tag`, the same locale the terminal uses.
        var locale: String
        /// `h23` or `h12`: the clock the language reads times on (the core's
        /// `Language.usesTwentyFourHourClock`), whatever the browser's own locale.
        var hourCycle: String
        var strings: [String: String]
        var lists: [String: [String]]
        /// Every form field's bounds and default by field id (the core's `FormBounds`), so the
        /// browser holds none of its own.
        var forms: [String: FieldBounds]
    }

    @Sendable func catalog(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let language = try await LanguageChoice.language(for: request, settings: settings)
        guard let data = Self.encoded[language] else { throw APIError.serverFault }
        return JSONBody.response(data)
    }

    /// Each language's catalog, encoded once: every page load asks for it, and encoding its
    /// hundreds of sorted strings each time cost milliseconds a request.
    static let encoded: [Language: Data] = Dictionary(
        uniqueKeysWithValues: Language.allCases.compactMap { language in
            let catalog = StringCatalog.shared(for: language)
            let value = Catalog(
                language: language, locale: language.bcp47Tag,
                hourCycle: language.usesTwentyFourHourClock ? "h23" : "h12", strings: catalog.strings,
                lists: catalog.lists,
                forms: FormBounds.all)
            // try?: a language whose catalog did not encode is left out, and asking for it answers
            // 500 (serverFault, above) rather than a catalog with strings missing.
            return (try? JSONResponse<Catalog>.encoder.encode(value)).map { (language, $0) }
        })

    struct Ambient: Encodable {
        var sounds: [AmbientSound]
    }

    @Sendable func ambient(_ request: Request, context: BasicRequestContext) -> JSONResponse<Ambient> {
        JSONResponse(Ambient(sounds: AmbientCatalog.builtIn.entries))
    }
}

/// The language a request asks for: `?lang=`, then the person's setting, then `Accept-Language`.
enum LanguageChoice {
    static func language(for request: Request, settings: SettingsService) async throws -> Language {
        if let code = request.uri.queryParameters["lang"] {
            guard let language = Language(rawValue: String(code)) else {
                throw APIError.invalid(
                    .apiLanguageChoice, ["choices": Language.allCases.map(\.rawValue).joined(separator: ", ")])
            }
            return language
        }
        if let chosen = try await settings.load().language { return chosen }
        return accepted(by: request) ?? .english
    }

    /// The first language of `Accept-Language` that Momentum speaks (the UI sends the one it shows).
    static func accepted(by request: Request) -> Language? {
        let accepted = request.headers[.acceptLanguage] ?? ""
        for part in accepted.split(separator: ",") {
            let tag = part.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if let language = Language(localeIdentifier: tag) { return language }
        }
        return nil
    }
}
