import Foundation

/// The user-facing texts of one language: single strings by key and numbered lists by name.
///
/// Every text a person reads comes from here; catalogs are JSON files in the core's resources,
/// embedded in the binary so an installed `momentum` needs nothing beside it.
///
/// ```swift
/// let strings = StringCatalog.shared(for: .german)
/// strings[.phaseCountdown]                                 // "Ankommen"
/// strings.format(.playerRemaining, ["time": "09:59"])      // "noch 09:59"
/// ```
public struct StringCatalog: Sendable {
    public let language: Language
    public let strings: [String: String]
    public let lists: [String: [String]]

    public init(language: Language, json: [UInt8]) throws {
        let file = try JSONDecoder().decode(CatalogFile.self, from: Data(json))
        self.language = language
        self.strings = file.strings
        self.lists = file.lists
    }

    /// The catalog bundled for `language`.
    public static func shared(for language: Language) -> StringCatalog {
        switch language {
        case .english: english
        case .german: german
        }
    }

    // The bundled catalogs are checked by tests; an unreadable one falls back to empty tables,
    // whose lookups show the key itself rather than crashing.
    private static let english = load(.english, PackageResources.strings_en_json)
    private static let german = load(.german, PackageResources.strings_de_json)

    private static func load(_ language: Language, _ bytes: [UInt8]) -> StringCatalog {
        // try?: both catalogs are compiled in, and LocalizationTests decodes each and checks every
        // key, so a release that passed its tests never takes the fallback.
        (try? StringCatalog(language: language, json: bytes))
            ?? StringCatalog(language: language, strings: [:], lists: [:])
    }

    private init(language: Language, strings: [String: String], lists: [String: [String]]) {
        self.language = language
        self.strings = strings
        self.lists = lists
    }

    /// The text for `key`, or the key itself when it is missing (a test keeps that from happening).
    public subscript(key: StringKey) -> String {
        strings[key.rawValue] ?? key.rawValue
    }

    /// The text for `key` with `{name}` placeholders replaced by `arguments[name]`.
    ///
    /// A value that ends a sentence itself ("Mara L.", "Ready?") takes the place of the
    /// sentence's own full stop after it: "by Mara L.", never "by Mara L..". The browser's `t()`
    /// (js/i18n.js) fills its placeholders by the same rule.
    public func format(_ key: StringKey, _ arguments: [String: String]) -> String {
        Self.fill(self[key], arguments)
    }

    /// `template` with each `{name}` replaced by its value, by the rule of ``format(_:_:)``.
    public static func fill(_ template: String, _ arguments: [String: String]) -> String {
        var text = template
        for (name, value) in arguments {
            if endsASentence(value) {
                text = text.replacingOccurrences(of: "{\(name)}.", with: value)
            }
            text = text.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return text
    }

    /// Whether `value` ends a sentence of its own: a word's last letter followed by `.`, `!`, `?`
    /// or `…` ("Mara L.", "Ready?"). A lone mark or one after another sign (a host `.`, a path
    /// `../`) is a literal and keeps the template's full stop.
    static func endsASentence(_ value: String) -> Bool {
        guard let last = value.last, [".", "!", "?", "…"].contains(last) else { return false }
        return value.dropLast().last?.isLetter == true
    }

    /// `one` when `count` is 1, else `many` with `{count}` filled in.
    public func counted(_ count: Int, one: StringKey, many: StringKey) -> String {
        count == 1 ? self[one] : format(many, ["count": "\(count)"])
    }

    /// "1 day", "5 days" (or the German), as streaks count.
    public func days(_ count: Int) -> String { counted(count, one: .streakOneDay, many: .streakDays) }

    /// The text of a cue or other value that names its key and arguments.
    public func text(_ localized: LocalizedText) -> String {
        guard let key = StringKey(rawValue: localized.key) else { return localized.key }
        return format(key, localized.arguments)
    }

    /// The list named `name`, empty when missing.
    public func list(_ name: StringList) -> [String] {
        lists[name.rawValue] ?? []
    }

    private struct CatalogFile: Decodable {
        var strings: [String: String]
        var lists: [String: [String]]
    }
}

/// A catalog key with its arguments, for texts chosen by the core and shown by a front end.
public struct LocalizedText: Sendable, Equatable, Codable {
    public var key: String
    public var arguments: [String: String]

    public init(_ key: StringKey, _ arguments: [String: String] = [:]) {
        self.key = key.rawValue
        self.arguments = arguments
    }
}

/// The numbered lists in a catalog.
public enum StringList: String, Sendable, CaseIterable {
    case countdownAffirmations = "affirmations.countdown"
    case runningAffirmations = "affirmations.running"
}
