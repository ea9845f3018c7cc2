import Foundation

/// The languages Momentum speaks.
public enum Language: String, Sendable, Codable, CaseIterable {
    case english = "en"
    case german = "de"

    /// The locale every date, number and list is formatted in (`en_GB`, `de_DE`): one mapping
    /// for the terminal, the server and, as ``bcp47Tag``, the browser's `Intl`.
    public var localeIdentifier: String {
        switch self {
        case .english: "en_GB"
        case .german: "de_DE"
        }
    }

    /// ``localeIdentifier`` as a BCP 47 tag (`en-GB`), the form `Intl` and HTML `lang` take.
    public var bcp47Tag: String { localeIdentifier.replacingOccurrences(of: "_", with: "-") }

    /// The locale of ``localeIdentifier``.
    public var locale: Locale { Locale(identifier: localeIdentifier) }

    /// The language a locale identifier such as `de_DE.UTF-8` or `en-GB` asks for, if we speak it.
    public init?(localeIdentifier: String) {
        let code = localeIdentifier.prefix { $0.isLetter }.lowercased()
        guard let language = Language(rawValue: code) else { return nil }
        self = language
    }

    /// The language for an environment: `LC_ALL`, then `LC_MESSAGES`, then `LANG`; English otherwise.
    public static func preferred(in environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return Language(localeIdentifier: value) ?? .english
        }
        return .english
    }
}
